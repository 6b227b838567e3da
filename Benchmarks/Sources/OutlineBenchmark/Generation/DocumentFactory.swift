import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// Turns an ``OutlineTree`` into outline documents through OutlineKit's bulk path: the tree is
/// written as tab-indented text and read by ``OutlineKit/PlainTextImporter``, which builds the
/// graph with `OutlineBuilder` (no undo, no change tracking, O(1) per item).
enum DocumentFactory {
    /// The tree as tab-indented plain text: one line per item, the root left out.
    ///
    /// - Complexity: O(items + bytes).
    static func plainText(_ tree: OutlineTree) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tree.titleBytes + tree.count * 8)
        for index in 1 ..< tree.count {
            for _ in 1 ..< Int(tree.depths[index]) { bytes.append(0x09) }
            bytes.append(contentsOf: tree.titles[index].utf8)
            bytes.append(0x0A)
        }
        return Data(bytes)
    }

    /// A new store (no file yet) holding `tree` in `schema`, a version of the outline schema.
    ///
    /// - Throws: when the importer refuses the text (it never should: it holds no oddities) or
    ///   the document does not have one item per tree item.
    static func store(_ tree: OutlineTree, schema: Schema, text: Data) throws -> PersistentStore {
        let imported = try PlainTextImporter.read(text, file: "generated.txt", options: ImportOptions(strict: true, schema: schema))
        guard imported.document.itemCount == tree.count else {
            throw BenchmarkError("the generated document has \(imported.document.itemCount) items, the tree \(tree.count)")
        }
        return PersistentStore(context: imported.document.context)
    }
}
