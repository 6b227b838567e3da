import Foundation
import OutlineEngine
import OutlineStorage

/// An outline file opened for editing in an app or a terminal editor: the document stack
/// (`DocumentContainer`) with an ``OutlineDocument`` over its context.
///
/// Opening reads the file off the caller's actor with progress, migrating older versions of
/// the outline schema in memory (the first save then keeps the old file as `FILE.bak`), and
/// renumbers child lists whose `order` is not 0…n-1 (files of other tools). Saves run in the
/// background; see `DocumentContainer` for autosave, conflicts and reloads.
/// After a reload (another program changed the file), ``document`` is a new outline over the
/// new objects.
public final class OutlineStack {
    /// The document stack: saving, autosave, events, external changes.
    public let container: DocumentContainer
    /// The outline; edit it on the stack's actor.
    public private(set) var document: OutlineDocument
    private var reloadObserver: ObserverToken?

    private init(container: DocumentContainer, scan: OutlineDocument.OpeningScan? = nil) throws {
        self.container = container
        document = try OutlineDocument(context: container.context, scan: scan)
        reloadObserver = container.context.addChangeObserver { [weak self] change in
            guard change.reason == .reload, let self else { return }
            // The same schema as before, so this cannot fail; keep the old outline if it did.
            if let document = try? OutlineDocument(context: self.container.context) { self.document = document }
        }
    }

    /// The objects.
    public var context: EditingContext { container.context }

    /// Opens the outline at `path` for editing on the caller's actor (see
    /// `DocumentContainer.open(_:model:options:progress:isolation:)`).
    ///
    /// - Throws: `StorageError` for files that cannot be read, ``OutlineError``
    ///   `notAnOutline` for documents of another model.
    public static func open(
        _ path: String, options: DocumentContainer.Options = DocumentContainer.Options(),
        progress: ((LoadProgress) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> OutlineStack {
        // The pass over the items that finds the root runs off the actor, with the reading.
        let (container, scan) = try await DocumentContainer.openPreparing(
            path, model: .versions(try OutlineSchemas.bundle), options: options,
            progress: progress, preparing: OutlineDocument.openingScan(of:))
        let stack = try OutlineStack(container: container, scan: scan)
        // Lists another tool numbered differently: renumbered once, not undoable, saved next time.
        // Opening found out already whether there are any (the usual case: none).
        guard !stack.document.listsWereNumbered else { return stack }
        let context = container.context
        let undo = context.isUndoRegistrationEnabled
        context.isUndoRegistrationEnabled = false
        defer { context.isUndoRegistrationEnabled = undo }
        try stack.document.renumberSiblings()
        return stack
    }

    /// A new outline (the root item only) at the current schema version that will be the file
    /// at `path`; the first save writes it.
    ///
    /// - Throws: `StorageError` `conflict` when a file is already there.
    public static func create(
        _ path: String, format: DocumentFormat = .binary,
        options: DocumentContainer.Options = DocumentContainer.Options(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> OutlineStack {
        let container = try await DocumentContainer.create(path, schema: try OutlineSchemas.current, format: format, options: options)
        return try OutlineStack(container: container)
    }

    /// Saves in the background (see `DocumentContainer.save(isolation:)`).
    public func save(isolation: isolated (any Actor)? = #isolation) async throws {
        try await container.save()
    }

    /// Closes the container (see `DocumentContainer.close(isolation:)`).
    public func close(isolation: isolated (any Actor)? = #isolation) async throws {
        try await container.close()
    }

    /// Reads an OPML, Markdown or text file's items on a background context and inserts them
    /// under `parent` (the root when nil) at the end, merged as one undo step named after
    /// what was inserted; editing goes on meanwhile.
    ///
    /// - Returns: the inserted top-level items, and what the import warned about.
    /// - Throws: the importer's errors (nothing is inserted then).
    @discardableResult
    public func importItems(
        _ data: Data, format: InterchangeFormat, file: String, under parent: ManagedObject? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> (items: [ManagedObject], warnings: [InterchangeWarning]) {
        let target = parent ?? document.root
        let name = "Import \((file as NSString).lastPathComponent)"
        let (made, report) = try await container.performBackgroundTask(
            named: name,
            { background in
                let imported = try Interchange.read(data, format: format, file: file, options: ImportOptions(schema: background.schema))
                let outline = try OutlineDocument(context: background)
                let items = try outline.insertOutline(imported.document, under: target)
                return (items, imported.warnings)
            }, finishing: document.renumberMergedLists)
        return (made.0.map(report.parentObject(for:)), made.1)
    }
}
