import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage

/// What `outline validate` found: every problem of a document's file and object graph.
///
/// The file is checked by loading it (format, checksums, references, inverse pairs); the
/// graph by ``GraphChecks`` (inverses; for outlines checked with the outline model also
/// siblings' order 0…n-1, one root, no cycles in parent chains) and by the model's own rules
/// (required values, bounds, counts, uniqueness).
public struct ValidationReport: Sendable {
    /// One problem: where it is, what is wrong, what to do.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// `Item z105`, `Item z105.children`, `byte 1024`, ... (nil for the whole file).
        public var location: String?
        /// What is wrong, with the offending value.
        public var message: String
        /// What to do about it, when there is something to say.
        public var hint: String?

        /// A problem at `location` (nil: the whole file) saying `message` and `hint`.
        public init(at location: String? = nil, _ message: String, hint: String? = nil) {
            self.location = location
            self.message = message
            self.hint = hint
        }

        /// `where: what. What to do.`
        public var description: String {
            var text = location.map { "\($0): " } ?? ""
            text += message
            if !text.hasSuffix(".") { text += "." }
            if let hint { text += " \(hint)" }
            return text
        }
    }

    /// The document checked, as the user named it.
    public var file: String
    /// The format, when the file could be recognised.
    public var format: DocumentFormat?
    /// The schema version the document was checked against, when known.
    public var schemaVersion: String?
    /// The number of live objects checked (0 when the file did not load).
    public var objectCount: Int
    /// The problems found, file problems first: the first ``listedProblems`` of them.
    public var problems: [Problem]
    /// What the user should know about how the document was read (a model derived from the
    /// file), one `FILE: ...` line each.
    public var notes: [String] = []
    /// How many more problems were found than ``problems`` lists.
    public var unlistedProblems = 0

    /// How many problems a report lists at most; the others are only counted.
    public static let listedProblems = 100

    /// Whether no problem was found.
    public var isValid: Bool { problems.isEmpty }

    /// How many problems were found in all.
    public var problemCount: Int { problems.count + unlistedProblems }

    /// Checks the document at `path` (`-`: standard input), read with the versions of `model`.
    ///
    /// A document of an older version is checked as it is stored, without migrating it. With
    /// the outline model (no model named), a document of another model is checked against its
    /// own model: the one it embeds, or one derived from its data.
    /// - Throws: ``OutlineStorage/StorageError`` `unreadable` only when the file cannot be read
    ///   at all (missing, a folder, no permission); `missingModel` when the document's model
    ///   cannot be found (no version of `model` matches and it embeds none) and `invalidModel` when
    ///   none can be derived from it either, so nothing could be checked; every other failure is
    ///   a problem in the report.
    public static func check(path source: String, model: ModelBundle) throws -> ValidationReport {
        let path = StandardStreams.inputDisplayName(source)
        var report = ValidationReport(file: path, format: nil, schemaVersion: nil, objectCount: 0, problems: [])
        let store: PersistentStore
        do {
            let document = try StandardStreams.openDocument(source)
            let metadata = try PersistentStore.readMetadata(document)
            report.format = metadata.format
            var schema: Schema?
            do {
                schema = try DocumentVersioning.find(
                    metadata: metadata, model: model, file: path,
                    allowingOwnModel: OwnModels.areAllowed(with: model))?.source
                if let schema, let embedded = metadata.embeddedSchema, schema == embedded,
                    model.versions(matchingEntityHashes: metadata.versionHashes).isEmpty
                {
                    // Read with the model it embeds: the model given has no version it is at.
                    report.notes.append(embeddedModelNote(path, embedded, model, why: nil))
                }
            } catch let error as StorageError where metadata.embeddedSchema != nil && error.code != .unreadable {
                schema = nil  // Check it against the model it embeds, and say so: the model given is not used.
                if let embedded = metadata.embeddedSchema { report.notes.append(embeddedModelNote(path, embedded, model, why: error.message)) }
            }
            do {
                store = try PersistentStore.open(document, schema: schema)
            } catch let error as StorageError where schema == nil && metadata.embeddedSchema == nil && error.code == .invalidModel {
                // No model at hand, and none can be derived from the file: nothing could be checked.
                throw ModelNotFound(error: error)
            }
        } catch let missing as ModelNotFound {
            throw missing.error
        } catch let error as StorageError where error.code != .unreadable && error.code != .missingModel {
            report.problems.append(Problem(at: error.location, error.message, hint: error.hint))
            for detail in error.underlying?.details ?? [] { report.problems.append(Problem(detail)) }
            return report
        }
        let context = store.context
        report.schemaVersion = context.schema.name.isEmpty ? nil : context.schema.name
        if OwnModels.isReadWithDerivedModel(store) { report.schemaVersion = OwnModels.name(of: context.schema, derived: true) }
        if let note = OwnModels.derivationNote(store, file: path) { report.notes.append(note) }
        report.objectCount = context.graph.objectCount
        report.add(GraphChecks.inverses(context.graph), count: nil)
        // The outline's own rules (one root, siblings numbered 0…n-1, no cycles) hold for
        // outlines only: checked with the outline model, another model's rules are its own.
        if OwnModels.areAllowed(with: model), isOutlineSchema(context.schema), let tree = TreeShape(schema: context.schema) {
            let (problems, count) = GraphChecks.tree(context.graph, shape: tree, limit: listedProblems)
            report.add(problems, count: count)
        }
        let (issues, count) = context.validationIssues(limit: listedProblems)
        report.add(issues.map { Problem(at: "\($0.entity) \($0.objectID)\($0.property.map { ".\($0)" } ?? "")", $0.message) }, count: count)
        return report
    }

    /// Whether `schema` stores what one of the outline model's versions stores.
    private static func isOutlineSchema(_ schema: Schema) -> Bool {
        ((try? OutlineSchemas.versions) ?? []).contains { $0.isStorageCompatible(with: schema) }
    }

    /// Carries an error that means the document's model cannot be found past the catch that
    /// turns the other errors into problems.
    private struct ModelNotFound: Error {
        var error: StorageError
    }

    /// Adds the first of `found` while fewer than ``listedProblems`` are listed, and counts the
    /// rest; `count` is how many were found when `found` holds only the first of them.
    private mutating func add(_ found: [Problem], count: Int?) {
        let room = max(0, Self.listedProblems - problems.count)
        problems += found.prefix(room)
        unlistedProblems += (count ?? found.count) - min(room, found.count)
    }

    /// `FILE: valid (...)`, or `FILE: N problems:` followed by one `FILE: where: what. What to do.` line each.
    public func renderText() -> String {
        guard !isValid else {
            let version = schemaVersion.map { ", \($0)" } ?? ""
            let count = "\(DocumentInfo.grouped(objectCount)) \(objectCount == 1 ? "object" : "objects")"
            return "\(file): valid (\(format?.rawValue ?? "unknown format")\(version), \(count))\n"
        }
        let total = problemCount
        let listed = unlistedProblems > 0 ? " (the first \(problems.count) listed)" : ""
        var out = "\(file): \(DocumentInfo.grouped(total)) \(total == 1 ? "problem" : "problems")\(listed):\n"
        for problem in problems { out += "\(file): \(problem)\n" }
        if unlistedProblems > 0 {
            out += "\(file): and \(DocumentInfo.grouped(unlistedProblems)) more \(unlistedProblems == 1 ? "problem" : "problems"), not listed.\n"
        }
        return out
    }

    /// The error for an invalid document, as `outline validate` reports it after the list.
    public var failure: OutlineError? {
        guard !isValid else { return nil }
        let total = problemCount
        return OutlineError(
            .invalidDocument, file: file,
            "the document is not valid (\(DocumentInfo.grouped(total)) \(total == 1 ? "problem" : "problems")\(unlistedProblems > 0 ? ", the first \(problems.count) listed above" : " listed above"))",
            hint: "\(BackupAdvice.restore(file, capitalized: true)), or fix the objects named above.")
    }
}

extension ValidationReport {
    /// `FILE: its model (NAME) is not a version of MODEL (WHY); checked with the model it embeds.`
    private static func embeddedModelNote(_ path: String, _ embedded: Schema, _ model: ModelBundle, why: String?) -> String {
        let name = embedded.name.isEmpty ? "" : " (\(embedded.name))"
        return "\(path): its model\(name) is not a version of \(model.name)\(why.map { " (\($0))" } ?? ""); checked with the model it embeds."
    }
}
