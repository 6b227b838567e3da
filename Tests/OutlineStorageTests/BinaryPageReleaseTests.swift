import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// Binary reading gives back the inflated body's pages as it decodes, and copies big arenas a
/// slice at a time: values on either side of every slice and page boundary must come out whole.
@Suite struct BinaryPageReleaseTests {
    @Test func valuesSpanningReleasedSlicesReadBackExactly() throws {
        let schema = try StoreTestSchemas.allTypes()
        let store = PersistentStore(schema: schema)
        var expected: [String] = []
        // About 3.5 MiB of strings (more than three 1 MiB slices), lengths that do not divide
        // a page, non-ASCII characters straddling boundaries, and a second column after it.
        for i in 0 ..< 3_000 {
            let text = String(repeating: "é\(i % 10)ab", count: 1 + (i * 37) % 400)
            let sample = try store.context.insert("Sample")
            try store.context.setValue(.string(text), forKey: "string", of: sample)
            try store.context.setValue(.integer(Int64(i)), forKey: "int64", of: sample)
            try store.context.setValue(.binary(Data(repeating: UInt8(i % 251), count: i % 700)), forKey: "binary", of: sample)
            expected.append(text)
        }
        let bytes = try store.encoded(as: .binary)
        let loaded = try PersistentStore.load(bytes, schema: schema)
        let samples = try loaded.context.objects(ofEntity: "Sample")
        #expect(samples.count == 3_000)
        for sample in samples {
            guard case .integer(let i)? = try loaded.context.value(forKey: "int64", of: sample) else {
                Issue.record("int64 lost")
                continue
            }
            #expect(try loaded.context.value(forKey: "string", of: sample) == .string(expected[Int(i)]))
            #expect(try loaded.context.value(forKey: "binary", of: sample) == .binary(Data(repeating: UInt8(i % 251), count: Int(i) % 700)))
        }
        #expect(try loaded.encoded(as: .binary) == bytes)
    }
}

/// Child lists of a binary document are kept packed a page of rows at a time after reading
/// (`ListColumn`): they must read back as written across pages, and an edit must reach only
/// the lists it changes, through another save and read.
@Suite struct BinaryPackedListsTests {
    /// Every item's children as ids, by item id.
    static func childLists(_ context: EditingContext) throws -> [ObjectID: [ObjectID]] {
        let children = try #require(context.schema.info(named: "Item")?.relationshipIndex(named: "children"))
        var lists: [ObjectID: [ObjectID]] = [:]
        for item in try context.objects(ofEntity: "Item") {
            lists[context.objectID(of: item)] = context.relatedObjects(of: item, children).map(context.objectID(of:))
        }
        return lists
    }

    @Test func childListsOverManyPagesReadBackAndEditsReachOnlyTheirLists() throws {
        let schema = try StoreTestSchemas.nestedList()
        let store = PersistentStore(schema: schema)
        let context = store.context
        // 40,000 items, three children each: the lists span three pages of rows.
        var items = [try context.insert("Item")]
        for i in 1 ..< 40_000 {
            let item = try context.insert("Item")
            try context.add(item, toKey: "children", of: items[(i - 1) / 3])
            items.append(item)
        }
        let written = try Self.childLists(context)
        let loaded = try PersistentStore.load(try store.encoded(as: .binary), schema: schema)
        #expect(try Self.childLists(loaded.context) == written)

        // Move an item of the last page under an item of the first, and delete one in between.
        let edited = loaded.context
        func item(_ index: Int) throws -> ManagedObject { try #require(edited.object(with: context.objectID(of: items[index]))) }
        let moved = try item(39_000)
        let oldParent = try item((39_000 - 1) / 3)
        try edited.remove(moved, fromKey: "children", of: oldParent)
        try edited.add(moved, toKey: "children", of: try item(2), at: 0)
        try edited.delete(try item(25_000))
        let expected = try Self.childLists(edited)
        #expect(expected[context.objectID(of: items[2])]?.first == context.objectID(of: items[39_000]))
        #expect(expected[context.objectID(of: items[25_000])] == nil)
        let again = try PersistentStore.load(try loaded.encoded(as: .binary), schema: schema)
        #expect(try Self.childLists(again.context) == expected)
    }
}
