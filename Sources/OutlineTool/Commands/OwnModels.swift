import OutlineEngine
import OutlineKit
import OutlineStorage

/// Documents that belong to no version of the model a command reads with: Core Data XML
/// stores of other apps (read with a model derived from their data) and documents that embed
/// a model of their own. Commands read them with their own model when the user named no model.
enum OwnModels {
    /// Whether a command reading with `model` opens documents of other models with their own
    /// model: only with the outline model, which is what commands use when no model is named.
    static func areAllowed(with model: ModelBundle) -> Bool {
        guard let outline = try? OutlineSchemas.bundle else { return false }
        return model.name == outline.name && model.versions == outline.versions
    }

    /// `FILE: model derived from the file: N entities; attribute types inferred.` when `store`
    /// was just read with a model derived from its data (not when it embeds one derived earlier).
    static func derivationNote(_ store: PersistentStore, file: String) -> String? {
        guard store.metadata.isSchemaDerived, store.metadata.embeddedSchema == nil else { return nil }
        let count = store.schema.entities.count
        return "\(file): model derived from the file: \(count) \(count == 1 ? "entity" : "entities"); attribute types inferred."
    }

    /// Whether `store` was read with a model derived from data: now, or earlier and embedded.
    static func isReadWithDerivedModel(_ store: PersistentStore) -> Bool {
        guard store.metadata.isSchemaDerived else { return false }
        return store.metadata.embeddedSchema.map { $0 == store.schema } ?? true
    }

    /// How reports name a document's own model: its name, or what it is when it has none.
    static func name(of schema: Schema, derived: Bool) -> String {
        if derived { return schema.name.isEmpty ? "derived from the file" : "\(schema.name) (derived from the file)" }
        return schema.name.isEmpty ? "its own (unnamed)" : schema.name
    }
}
