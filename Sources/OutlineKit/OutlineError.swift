import Foundation
import OutlineEngine

/// The one public error type of the outline domain: a path that does not exist, an edit
/// that cannot be made, a document that is not an outline.
public struct OutlineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A switchable classification of the failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `noSuchItem`.
        public let rawValue: String
        /// The code named `rawValue` (one of the constants below, or one a newer version adds).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The document's schema has no `Item` entity shaped like an outline.
        public static let notAnOutline = Code(rawValue: "notAnOutline")
        /// An item path or id that does not exist.
        public static let noSuchItem = Code(rawValue: "noSuchItem")
        /// A path or `#id` that is not written as one (`1..2`, `#abc`).
        public static let invalidItemReference = Code(rawValue: "invalidItemReference")
        /// An edit that makes no sense here (moving the root, indenting the first item, ...).
        public static let invalidEdit = Code(rawValue: "invalidEdit")
        /// A `find` query that does not parse or names properties the document does not have.
        public static let invalidQuery = Code(rawValue: "invalidQuery")
        /// A document that `outline validate` found problems in (listed separately).
        public static let invalidDocument = Code(rawValue: "invalidDocument")
        /// An output file whose format neither `--to` nor its extension names.
        public static let unknownOutputFormat = Code(rawValue: "unknownOutputFormat")
        /// A model version name that the model does not have.
        public static let noSuchVersion = Code(rawValue: "noSuchVersion")
        /// A migration that cannot be done: blockers in the mapping, or data that does not fit.
        public static let migrationBlocked = Code(rawValue: "migrationBlocked")
        /// The document's schema version has no place for what was asked (notes in version 1, ...).
        public static let notInThisVersion = Code(rawValue: "notInThisVersion")
        /// A file that cannot be created or replaced as asked (it exists and replacing was not allowed).
        public static let fileExists = Code(rawValue: "fileExists")
        /// An imported file that does not follow its format (a Markdown list that jumps two
        /// levels, ...): a warning when reading leniently, this error when reading strictly.
        public static let nonconforming = Code(rawValue: "nonconforming")
        /// A stored value that does not decode (an item's `extraAttributes`).
        public static let corruptValue = Code(rawValue: "corruptValue")
        /// Undo was asked for, but the document keeps no step to undo.
        public static let nothingToUndo = Code(rawValue: "nothingToUndo")
        /// Redo was asked for, but the document keeps no undone step to make again.
        public static let nothingToRedo = Code(rawValue: "nothingToRedo")
        /// Something is larger than the chosen format can hold and read back (an item's text
        /// and note together in one OPML element).
        public static let limitExceeded = Code(rawValue: "limitExceeded")
    }

    /// What kind of failure this is; switch on it to react to some of them.
    public var code: Code
    /// The document concerned, as the user named it (nil when the error is not about a file).
    public var file: String?
    /// Where: an item path (`2.1`), an id (`#102`), a schema version, a predicate column.
    public var location: String?
    /// What is wrong, with the offending value.
    public var message: String
    /// What to do next, in words that suit any caller (the command-line tool may replace it).
    public var hint: String?

    /// An error of kind `code` about `file` at `location`, saying `message` and `hint`.
    public init(_ code: Code, file: String? = nil, at location: String? = nil, _ message: String, hint: String? = nil) {
        self.code = code
        self.file = file
        self.location = location
        self.message = message
        self.hint = hint
    }

    /// This error about `file` (kept when the error already names one).
    public func inFile(_ file: String) -> OutlineError {
        var copy = self
        if copy.file == nil { copy.file = file }
        return copy
    }

    /// `file: location: message. hint`, ready to show to a user.
    public var description: String {
        let text = DiagnosticText.format(file: file, location: location, message: message, hint: hint)
        return text
    }
}

extension OutlineError: LocalizedError {
    /// The same text as ``description``, for code that shows `localizedDescription`.
    public var errorDescription: String? { description }
}
