import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Relationships are linked while reading when their members have been read already, and after
/// the last object otherwise; either way the file's last word on a relationship counts.
@Suite struct XMLStoreLinkingTests {
    /// A nested list whose item z103 lists its parent twice: first `first`, then `second`.
    private static func store(parentListedAs first: UInt64, then second: UInt64) -> Data {
        Data(
            """
            <?xml version="1.0" standalone="yes"?>
            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>B4FC79D0-E654-43EF-9020-A5273B3F104A</UUID>
                    <nextObjectID>104</nextObjectID>
                    <metadata></metadata>
                </databaseInfo>
                <object type="ITEM" id="z102">
                    <relationship name="children" type="0/0" destination="ITEM" idrefs="z103"></relationship>
                    <relationship name="parent" type="1/1" destination="ITEM"></relationship>
                </object>
                <object type="ITEM" id="z103">
                    <relationship name="children" type="0/0" destination="ITEM"></relationship>
                    <relationship name="parent" type="1/1" destination="ITEM" idrefs="z\(first)"></relationship>
                    <relationship name="parent" type="1/1" destination="ITEM" idrefs="z\(second)"></relationship>
                </object>
                <object type="ITEM" id="z104">
                    <relationship name="children" type="0/0" destination="ITEM"></relationship>
                    <relationship name="parent" type="1/1" destination="ITEM"></relationship>
                </object>
            </database>
            """.utf8)
    }

    @Test func aRelationshipListedTwiceKeepsItsLastListWhenTheFirstNamesALaterObject() throws {
        let (graph, _) = try XMLStore.read(Self.store(parentListedAs: 104, then: 102), schema: try XMLFixture.nestedListSchema(), file: "twice.xml")
        #expect(graph.id(try #require(graph.object(103)), "parent") == 102)
        #expect(graph.ids(try #require(graph.object(102)), "children") == [103])
    }

    @Test func aRelationshipListedTwiceKeepsItsLastListWhenTheLastNamesALaterObject() throws {
        // z103's parent ends up z104, whose children do not list it: the sides disagree.
        #expect(throws: StorageError.self) {
            try XMLStore.read(Self.store(parentListedAs: 102, then: 104), schema: try XMLFixture.nestedListSchema(), file: "twice.xml")
        }
    }

    @Test func membersReadBeforeAndAfterTheirOwnerAreLinked() throws {
        let (graph, _) = try XMLFixture.read("NestedList.xml", schema: try XMLFixture.nestedListSchema())
        let root = try #require(graph.object(102))
        #expect(graph.ids(root, "children") == [103, 104], "members read after their owner")
        #expect(graph.id(try #require(graph.object(104)), "parent") == 102, "a member read before its owner")
    }
}
