import Foundation

/// The one public error type of the outline domain: a path that does not exist, an edit
/// that cannot be made, a document that is not an outline.
public struct OutlineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A switchable classification of the failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The document's schema has no `Item` entity shaped like an outline.
        public static let notAnOutline = Code(rawValue: "notAnOutline")
        /// An item path or id that does not exist.
        public static let noSuchItem = Code(rawValue: "noSuchItem")
        /// An edit that makes no sense here (moving the root, indenting the first item, ...).
        public static let invalidEdit = Code(rawValue: "invalidEdit")
        /// An imported file that does not follow its format (a Markdown list that jumps two
        /// levels, ...): a warning when reading leniently, this error when reading strictly.
        public static let nonconforming = Code(rawValue: "nonconforming")
        /// A stored value that does not decode (an item's `extraAttributes`).
        public static let corruptValue = Code(rawValue: "corruptValue")
    }

    public var code: Code
    public var location: String?
    public var message: String
    public var hint: String?

    public init(_ code: Code, at location: String? = nil, _ message: String, hint: String? = nil) {
        self.code = code
        self.location = location
        self.message = message
        self.hint = hint
    }

    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += message
        if !text.hasSuffix(".") { text += "." }
        if let hint { text += " \(hint)" }
        return text
    }
}

extension OutlineError: LocalizedError {
    public var errorDescription: String? { description }
}
