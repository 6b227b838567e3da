import Foundation
import OutlineEngine

/// The one public error type of the storage module: a file problem with its place and remedy.
///
/// `description` reads `FILE: where: what. What to do.`, e.g.
/// `notes.outline: byte 1024: the compressed body ends early (expected 38112 more bytes). The
/// file is truncated; restore it from notes.outline.bak.` (the backup is named only when it exists).
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A switchable classification of the failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `truncated`.
        public let rawValue: String
        /// The code named `rawValue` (one of the constants below, or one a newer version adds).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The file or folder does not exist or cannot be read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The file cannot be written (permissions, disk full, read-only folder, ...).
        public static let unwritable = Code(rawValue: "unwritable")
        /// Not well-formed XML, or XML of the wrong kind.
        public static let malformedXML = Code(rawValue: "malformedXML")
        /// A data model that cannot be used (inconsistent, unsupported, Xcode 3 format, ...).
        public static let invalidModel = Code(rawValue: "invalidModel")
        /// The content is not in any format this library reads.
        public static let unknownFormat = Code(rawValue: "unknownFormat")
        /// The file ends before the data it declares.
        public static let truncated = Code(rawValue: "truncated")
        /// A checksum does not match: the bytes were changed after writing.
        public static let checksumMismatch = Code(rawValue: "checksumMismatch")
        /// A structurally invalid value (bad count, bad reference, bad encoding, ...).
        public static let corrupt = Code(rawValue: "corrupt")
        /// Written by a newer version of the format or schema than this build knows.
        public static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// The stored version hashes do not match the model.
        public static let incompatibleModel = Code(rawValue: "incompatibleModel")
        /// A declared size or depth is over a safety limit.
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// The objects break the model's rules (see ``StorageError/underlying``); nothing was written.
        public static let validationFailed = Code(rawValue: "validationFailed")
        /// The document changed on disk since it was opened, or another process holds it.
        public static let conflict = Code(rawValue: "conflict")
        /// No model version describes the document and it embeds none (Core Data's 134130).
        public static let missingModel = Code(rawValue: "missingModel")
        /// A model of several versions names no current version, and one is needed (or the
        /// version chosen instead does not exist).
        public static let noCurrentVersion = Code(rawValue: "noCurrentVersion")
        /// The document cannot be migrated: the mapping is not inferable or its data violates the target.
        public static let migrationFailed = Code(rawValue: "migrationFailed")
        /// The caller cancelled the work; nothing was written.
        public static let cancelled = Code(rawValue: "cancelled")
        /// Readable, but not as its format says (an OPML outline without `text`, an unknown
        /// version, ...): a warning when reading leniently, this error when reading strictly.
        public static let nonconforming = Code(rawValue: "nonconforming")
        /// The undo history a document keeps cannot be used: another program changed the
        /// objects since it was saved, or it does not fit them. The document itself is fine.
        public static let historyMismatch = Code(rawValue: "historyMismatch")
    }

    /// What kind of failure this is; switch on it to react to some of them.
    public var code: Code
    /// The file concerned, as the user named it.
    public var file: String?
    /// Where in the file: `line 12`, `byte 1024`, `entity Item`, `Item.title`.
    public var location: String?
    /// What is wrong, with the offending value.
    public var message: String
    /// What the user can do next.
    public var hint: String?
    /// The underlying engine error, when the failure came from the engine.
    public var underlying: EngineError?

    /// An error of kind `code`.
    ///
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - file: the file concerned, as the user named it.
    ///   - location: where in the file, such as `byte 1024` or `line 12`.
    ///   - message: what is wrong, with the offending value.
    ///   - hint: what to do next, in words that suit any caller (no command-line flags).
    ///   - underlying: the engine error this one reports, if any.
    public init(
        _ code: Code, file: String? = nil, at location: String? = nil, _ message: String,
        hint: String? = nil, underlying: EngineError? = nil
    ) {
        self.code = code
        self.file = file
        self.location = location
        self.message = message
        self.hint = hint
        self.underlying = underlying
    }

    /// `file: location: message. hint`, then the engine's details one per line: ready to show.
    public var description: String {
        var text = DiagnosticText.format(file: file, location: location, message: message, hint: hint)
        if let underlying, !underlying.details.isEmpty {
            for detail in underlying.details { text += "\n  - \(detail)" }
        }
        return text
    }
}

extension StorageError: LocalizedError {
    /// The same text as ``description``, for code that shows `localizedDescription`.
    public var errorDescription: String? { description }
}
