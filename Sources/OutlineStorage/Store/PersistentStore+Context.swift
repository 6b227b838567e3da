import OutlineEngine

extension PersistentStore {
    /// A new document holding the objects of `context` (built elsewhere: an import, a copy),
    /// with metadata that embeds the context's schema. Nothing is written until ``save()``;
    /// without `path` the document lives in memory only.
    public convenience init(
        context: EditingContext, path: String? = nil, format: DocumentFormat = .binary,
        options: Options = Options()
    ) {
        self.init(
            context: context, path: path, format: format,
            metadata: StoreMetadata(format: format, embeddedSchema: context.schema), options: options)
    }
}
