import Foundation
import OutlineEngine

/// The properties interchange formats read and write beyond text, note, done and collapsed.
extension OutlineDocument {
    /// When `item` was created (nil when unknown, or in schema version 1).
    public func created(of item: ManagedObject) -> Date? {
        shape.created.flatMap { context.attributeValue(of: item, $0)?.dateValue }
    }

    /// The OPML attributes `item` keeps for export (see ``ExtraAttributes``); nil when it keeps
    /// none or the schema has no `extraAttributes`.
    ///
    /// - Throws: ``OutlineError`` `corruptValue` when the stored bytes do not decode.
    public func extraAttributes(of target: ManagedObject) throws -> ExtraAttributes? {
        guard let attribute = shape.extraAttributes,
            let data = context.attributeValue(of: target, attribute)?.binaryValue
        else { return nil }
        return try ExtraAttributes(decoding: data, item: "item \(ItemReference.path(path(of: target)))")
    }

    /// Replaces the OPML attributes `item` keeps (nil or empty removes them); one undo step.
    public func setExtraAttributes(_ extra: ExtraAttributes?, of target: ManagedObject) throws {
        guard let attribute = shape.extraAttributes else {
            throw OutlineError(
                .notInThisVersion, at: context.schema.name, "this schema version has no extraAttributes",
                hint: "Migrate the document to the current version first.")
        }
        let value = extra.flatMap { $0.entries.isEmpty ? nil : Value.binary($0.encoded()) }
        try context.perform("Edit OPML attributes") { try context.setAttribute(value, attribute, of: target) }
    }
}
