import OutlineEngine

/// Which model a ``DocumentContainer`` opens a document with.
public enum DocumentModel: Sendable {
    /// The model the document embeds (every document this library writes embeds its model).
    case embedded
    /// Exactly this schema: a document saved with another model is refused (`incompatibleModel`).
    case schema(Schema)
    /// The versions of a model: a document of an older version is migrated in memory to
    /// `target` (the current version when nil); the file is untouched until the next save.
    case versions(ModelBundle, target: String? = nil)

    /// Opens the document at `path` with this model, as ``PersistentStore`` does.
    func open(_ path: String, options: PersistentStore.Options) throws -> PersistentStore {
        switch self {
        case .embedded: try PersistentStore.open(path, schema: nil, options: options)
        case .schema(let schema): try PersistentStore.open(path, schema: schema, options: options)
        case .versions(let bundle, let target): try PersistentStore.open(path, model: bundle, targetName: target, options: options)
        }
    }
}
