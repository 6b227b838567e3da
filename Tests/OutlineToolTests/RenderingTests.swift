import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineKit
@testable import OutlineTool

@Suite struct RenderingTests {
    static func sample() throws -> OutlineDocument {
        let document = try SampleOutlines.emptyDocument()
        let groceries = try document.insertItem("Groceries")
        try document.insertItem("Milk", under: groceries, note: "Oat, not soy.\nTwo cartons.", done: true)
        try document.insertItem("Bread", under: groceries)
        try document.insertItem("Say \"hi\"\tto\\Bob")
        return document
    }

    @Test func textIsNumberedIndentedWithDoneMarksAndNotes() throws {
        let document = try Self.sample()
        #expect(
            document.renderText() == """
                1 Groceries
                  1.1 [x] Milk
                      Oat, not soy.
                      Two cartons.
                  1.2 Bread
                2 Say "hi"\\tto\\Bob

                """)
        let under = try document.item(at: ItemReference(parsing: "1"))
        #expect(
            document.renderText(.init(start: under, depth: 1, showsIDs: true))
                == "1.1 [x] Milk  #104\n    Oat, not soy.\n    Two cartons.\n1.2 Bread  #105\n")
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let document = try Self.sample()
        let json = document.renderJSON()
        #expect(
            json
                == #"{"schemaVersion": "Outline 3", "items": [{"text": "Groceries", "note": null, "done": false, "collapsed": false, "tags": [], "childCount": 2, "children": [{"text": "Milk", "note": "Oat, not soy.\nTwo cartons.", "done": true, "collapsed": false, "tags": [], "childCount": 0, "children": []}, {"text": "Bread", "note": null, "done": false, "collapsed": false, "tags": [], "childCount": 0, "children": []}]}, {"text": "Say \"hi\"\tto\\Bob", "note": null, "done": false, "collapsed": false, "tags": [], "childCount": 0, "children": []}]}"#
                + "\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((parsed?["items"] as? [Any])?.count == 2)
    }

    @Test func deepTreesRenderWithoutRecursion() throws {
        let document = try SampleOutlines.chain(depth: 100_000)
        let json = document.renderJSON()
        #expect(json.hasSuffix(String(repeating: "]}", count: 100_000) + "]}\n"))
        let lines = document.renderText().split(separator: "\n")
        #expect(lines.count == 100_000)
        #expect(lines.last.map(String.init) == String(repeating: " ", count: 80) + "1.1.1.1.1.….1.1.1.1.1 (depth 100000) level 100000")
    }
}
