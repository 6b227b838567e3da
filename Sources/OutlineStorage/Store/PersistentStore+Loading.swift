import OutlineEngine

extension PersistentStore {
    /// A document without a file, loaded from `bytes` (read from a pipe or standard input) with
    /// the versions of `model` and migrated in memory to the current version (or `targetName`),
    /// as ``open(_:model:targetName:options:migrationOptions:allowingOwnModel:progress:)`` opens a file.
    ///
    /// - Parameter name: how messages name the document (`standard input`).
    /// - Throws: as ``open(_:model:targetName:options:migrationOptions:allowingOwnModel:progress:)``.
    public static func load(_ bytes: [UInt8], model: ModelBundle, name: String, targetName: String? = nil,
                            options: Options = Options(), migrationOptions: MigrationOptions = MigrationOptions(),
                            allowingOwnModel: Bool = false,
                            progress: ((MigrationProgress) -> Void)? = nil) throws -> PersistentStore {
        let metadata = try bytes.withUnsafeBytes { raw in
            guard let format = DocumentFormat.detect(raw) else { throw DocumentFormat.unknownFormatError(raw, file: name) }
            return try StoreCodec.readMetadata(raw, format: format, file: name, limits: options.limits)
        }
        guard let versioning = try DocumentVersioning.find(metadata: metadata, model: model, targetName: targetName,
                                                           options: migrationOptions, file: name,
                                                           allowingOwnModel: allowingOwnModel) else {
            return try load(bytes, schema: nil, name: name, options: options)
        }
        if versioning.isCurrent {
            return try load(bytes, schema: versioning.target, name: name, options: options)
        }
        let old = try load(bytes, schema: versioning.source, name: name, options: options)
        let (graph, report) = try versioning.migrate(old.context.graph, file: name, progress: progress)
        var newMetadata = old.metadata
        newMetadata.embeddedSchema = versioning.target
        newMetadata.versionHashes = versioning.target.entityVersionHashes
        newMetadata.versionIdentifiers = [versioning.target.versionIdentifier]
        let store = PersistentStore(context: EditingContext(graph: graph), path: nil, format: old.format,
                                    metadata: newMetadata, options: options)
        store.migration = report
        store.hasMetadataChanges = true
        return store
    }
}
