import OutlineEngine
import OutlineKit

extension OutlineFile {
    /// Runs `body` as one undo step named `name` (nil: named after the first edit inside it),
    /// attributing any error it throws to this file and, when the error names no place, to
    /// `location`. When `body` throws, every change it made is undone.
    @discardableResult
    public func edit<R>(_ name: String? = nil, at location: String? = nil, _ body: () throws -> R) throws -> R {
        try attributing(at: location) { try document.context.perform(name, body) }
    }

    /// The items `references` name, in order (`2.1.3`, `/`, `#ID`).
    ///
    /// - Throws: ``OutlineKit/OutlineError`` `invalidItemReference` or `noSuchItem` for the first
    ///   one that names no item.
    public func items(at references: [String]) throws -> [ManagedObject] {
        try references.map { try item(at: $0) }
    }

    /// `“Groceries”`: an item's text for a message, on one line (control characters escaped,
    /// see ``OutlineKit/ControlCharacters``), shortened past 60 characters.
    public func quotedText(of item: ManagedObject) -> String {
        let text = ControlCharacters.escaped(document.text(of: item) ?? "")
        return "“" + (text.count > 60 ? String(text.prefix(59)) + "…" : text) + "”"
    }
}
