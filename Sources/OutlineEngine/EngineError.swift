/// The one public error type of the engine: what went wrong, where, and what to do about it.
///
/// `description` reads `where: what. hint` so it can be shown to a user as it is.
public struct EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A switchable classification of the failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `invalidPredicate`.
        public let rawValue: String
        /// The code named `rawValue` (one of the constants below, or one a newer version adds).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The schema is inconsistent (unknown destination, bad inverse, duplicate names, ...).
        public static let invalidSchema = Code(rawValue: "invalidSchema")
        /// An entity or property name that the schema does not have.
        public static let unknownName = Code(rawValue: "unknownName")
        /// A value of the wrong type for an attribute, or an object of the wrong entity for a relationship.
        public static let typeMismatch = Code(rawValue: "typeMismatch")
        /// An object handle that does not refer to a live object of this context.
        public static let invalidObject = Code(rawValue: "invalidObject")
        /// A delete refused by a Deny delete rule.
        public static let deleteDenied = Code(rawValue: "deleteDenied")
        /// Validation found one or more violations.
        public static let validationFailed = Code(rawValue: "validationFailed")
        /// A predicate or key path that could not be parsed or evaluated.
        public static let invalidPredicate = Code(rawValue: "invalidPredicate")
        /// A migration that cannot be inferred or cannot be carried out on this data.
        public static let migrationFailed = Code(rawValue: "migrationFailed")
        /// Work stopped because the caller cancelled it.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The data violates an invariant of the graph (inverse mismatch, cycle, ...).
        public static let inconsistentGraph = Code(rawValue: "inconsistentGraph")
        /// A limit was reached: every object id is used, an evaluation ran out of its budget, ...
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// An undo history that does not fit the objects it was given to (see ``UndoHistory``).
        public static let historyMismatch = Code(rawValue: "historyMismatch")
        /// A request an operation cannot carry out as given (a results controller over a
        /// request with a fetch limit, say).
        public static let unsupportedRequest = Code(rawValue: "unsupportedRequest")
    }

    /// What kind of failure this is; switch on it to react to some of them.
    public var code: Code
    /// Where the problem is: a model element, `Entity.property`, an object id, a predicate column.
    public var location: String?
    /// What is wrong, with the offending value.
    public var message: String
    /// What the user can do next.
    public var hint: String?
    /// Every individual problem when there are several (validation, migration blockers).
    public var details: [String]

    /// An error of kind `code`.
    ///
    /// - Parameters:
    ///   - code: what kind of failure this is.
    ///   - location: where the problem is, such as `Item.text`, `z105` or `column 12`.
    ///   - message: what is wrong, with the offending value.
    ///   - hint: what to do next, in words that suit any caller (no command-line flags).
    ///   - details: every individual problem when there are several.
    public init(_ code: Code, at location: String? = nil, _ message: String, hint: String? = nil, details: [String] = []) {
        self.code = code
        self.location = location
        self.message = message
        self.hint = hint
        self.details = details
    }

    /// `location: message. hint`, then one line per detail: ready to show to a user.
    public var description: String {
        var text = DiagnosticText.format(location: location, message: message, hint: hint)
        for detail in details { text += "\n  - \(detail)" }
        return text
    }
}

#if canImport(Foundation)
    import Foundation
    extension EngineError: LocalizedError {
        /// The same text as ``description``, for code that shows `localizedDescription`.
        public var errorDescription: String? { description }
    }
#endif
