/// What an import could not keep because the target schema version has no place for it:
/// counted while reading, reported once at the end.
struct DroppedValues {
    var notes = 0
    var done = 0
    var attributes = 0

    /// One warning per kind that was dropped; `attributesName` says what the attributes were
    /// called in the source format ("OPML attributes", "properties").
    func report(to log: inout WarningLog, schema schemaName: String, attributesName: String) throws {
        if notes > 0 {
            try log.add(
                at: nil, "\(notes) notes were not imported: the schema \(schemaName) has no notes",
                hint: "Import into the current schema to keep them.", key: "schema-notes")
        }
        if done > 0 {
            try log.add(
                at: nil, "\(done) done states were not imported: the schema \(schemaName) has no done state",
                hint: "Import into the current schema to keep them.", key: "schema-done")
        }
        if attributes > 0 {
            try log.add(
                at: nil, "\(attributes) \(attributesName) were not kept: the schema \(schemaName) has no extraAttributes",
                hint: "Import into the current schema to keep them.", key: "schema-extra")
        }
    }
}
