import Foundation
import OutlineEngine

/// Translates between a store's metadata property list and ``StoreMetadata``.
enum XMLMetadataMapping {
    static let frameworkVersionKey = "NSPersistenceFrameworkVersion"
    static let hashesKey = "NSStoreModelVersionHashes"
    static let hashesVersionKey = "NSStoreModelVersionHashesVersion"
    static let identifiersKey = "NSStoreModelVersionIdentifiers"
    /// Written when the metadata does not say (the newest version in the notes' sample).
    static let defaultFrameworkVersion: Int64 = StoreMetadata.defaultFrameworkVersion

    // MARK: Reading

    /// The metadata of a store from its `<databaseInfo>` fields and property list.
    ///
    /// Core Data's own keys fill the typed fields (`NSStoreType` and `NSStoreUUID` are not
    /// stored: they come from the file); the embedded model is read with ``ModelReader``;
    /// every other key is kept in ``StoreMetadata/custom`` in file order.
    static func metadata(
        from plist: PropertyListValue?, uuid: UUID, nextObjectID: UInt64?,
        file: String, line: Int
    ) throws -> StoreMetadata {
        var metadata = StoreMetadata(format: .xml, uuid: uuid, nextObjectID: nextObjectID)
        guard let plist else { return metadata }
        guard case .dictionary(let entries) = plist else {
            throw wrongType("the metadata property list", "a dictionary", file, line)
        }
        var embeddedModel: String?
        var embeddedName: String?
        for (key, value) in entries {
            switch key {
            case frameworkVersionKey:
                guard case .integer(let version) = value else { throw wrongType(key, "an integer", file, line) }
                metadata.frameworkVersion = version
            case hashesKey:
                guard case .dictionary(let hashes) = value else { throw wrongType(key, "a dictionary of data", file, line) }
                for (entity, hash) in hashes {
                    guard case .data(let bytes) = hash else { throw wrongType("\(key).\(entity)", "data", file, line) }
                    metadata.versionHashes[entity] = bytes
                }
            case identifiersKey:
                guard case .array(let identifiers) = value else { throw wrongType(key, "an array of strings", file, line) }
                metadata.versionIdentifiers = try identifiers.map {
                    guard case .string(let identifier) = $0 else { throw wrongType(key, "an array of strings", file, line) }
                    return identifier
                }
            case StoreMetadata.embeddedModelKey:
                guard case .string(let contents) = value else { throw wrongType(key, "a string", file, line) }
                embeddedModel = contents
            case StoreMetadata.embeddedModelNameKey:
                guard case .string(let name) = value else { throw wrongType(key, "a string", file, line) }
                embeddedName = name
            case StoreMetadata.derivedModelKey:
                guard case .dictionary(let hashes) = value else { throw wrongType(key, "a dictionary of data", file, line) }
                metadata.isSchemaDerived = true
                for (entity, hash) in hashes {
                    guard case .data(let bytes) = hash else { throw wrongType("\(key).\(entity)", "data", file, line) }
                    metadata.sourceVersionHashes[entity] = bytes
                }
            case StoreMetadata.undoHistoryKey:
                // Checked only when the history is used: a damaged one must not keep the
                // document from opening.
                metadata.undoHistory = value
            case _ where StoreMetadata.reservedKeys.contains(key):
                continue
            default:
                metadata.custom.append((key, value))
            }
        }
        try StoreLimits.checkMetadata(metadata.custom, file: file, at: "line \(line)", reading: true)
        if let embeddedModel {
            guard embeddedModel.utf8.count <= StoreLimits.maximumModelBytes else {
                throw StorageError(
                    .limitExceeded, file: file, at: "line \(line)",
                    "the embedded model is \(XMLValueParsing.grouped(embeddedModel.utf8.count)) bytes long, over the limit of \(XMLValueParsing.grouped(StoreLimits.maximumModelBytes))",
                    hint: "No document embeds a model that large; the file is not a store or is hostile.")
            }
            metadata.embeddedSchema = try ModelReader.readSchema(
                contents: Data(embeddedModel.utf8), name: embeddedName ?? "",
                file: "\(file) (embedded model)")
        }
        return metadata
    }

    private static func wrongType(_ key: String, _ expected: String, _ file: String, _ line: Int) -> StorageError {
        StorageError(
            .corrupt, file: file, at: "line \(line)", "the metadata value of \(key) is not \(expected)",
            hint: "The metadata property list is damaged; \(BackupAdvice.restore(file, object: "the file")).")
    }

    // MARK: Writing

    /// The top-level metadata dictionary Core Data would write for `schema`, keys sorted.
    ///
    /// Version hashes: the stored hash of each entity listed in `metadata.versionHashes`
    /// (readers have checked them against the schema), else the schema's own; for a derived
    /// schema, the hashes of the model the data was first written with
    /// (``StoreMetadata/sourceVersionHashes``), so that app can still open the store, else the
    /// schema's own. Identifiers: the stored ones when the schema's identifier is empty or among
    /// them, else the schema's. An embedded derived schema is marked under ``StoreMetadata/derivedModelKey``.
    static func entries(for metadata: StoreMetadata, schema: Schema) -> [(key: String, value: PropertyListValue)] {
        var hashes: [(key: String, value: PropertyListValue)] = []
        let recorded = metadata.isSchemaDerived ? metadata.sourceVersionHashes : metadata.versionHashes
        for (index, entity) in zip(schema.entityIndices, schema.entities) {
            let hash = recorded[entity.name] ?? schema.versionHash(ofEntity: index)
            hashes.append((entity.name, .data(hash)))
        }
        let identifiers: [String]
        if !metadata.versionIdentifiers.isEmpty
            && (schema.versionIdentifier.isEmpty || metadata.versionIdentifiers.contains(schema.versionIdentifier))
        {
            identifiers = metadata.versionIdentifiers
        } else {
            identifiers = [schema.versionIdentifier]
        }
        var entries: [(key: String, value: PropertyListValue)] = [
            (frameworkVersionKey, .integer(metadata.frameworkVersion ?? defaultFrameworkVersion)),
            (hashesKey, .dictionary(hashes)),
            (hashesVersionKey, .integer(3)),
            (identifiersKey, .array(identifiers.map(PropertyListValue.string))),
        ]
        for (key, value) in metadata.custom where !StoreMetadata.reservedKeys.contains(key) {
            entries.append((key, value))
        }
        if metadata.embeddedSchema != nil {
            entries.append((StoreMetadata.embeddedModelKey, .string(ModelWriter.contents(of: schema))))
            entries.append((StoreMetadata.embeddedModelNameKey, .string(schema.name)))
        }
        if metadata.isSchemaDerived && metadata.embeddedSchema != nil {
            entries.append((StoreMetadata.derivedModelKey, sourceHashes(metadata)))
        }
        if let history = metadata.undoHistory {
            entries.append((StoreMetadata.undoHistoryKey, history))
        }
        return entries
    }

    /// ``StoreMetadata/sourceVersionHashes`` as the value of ``StoreMetadata/derivedModelKey``.
    static func sourceHashes(_ metadata: StoreMetadata) -> PropertyListValue {
        .dictionary(metadata.sourceVersionHashes.sorted { precedes($0.key, $1.key) }.map { ($0.key, .data($0.value)) })
    }

    /// Core Foundation's key order: by UTF-16 code units.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// Appends the `<metadata>` element at indentation `level`.
    static func write(_ entries: [(key: String, value: PropertyListValue)], level: Int, to output: inout XMLOutputBuffer) {
        output.appendIndent(level)
        output.append("<metadata>\n")
        output.appendIndent(level + 1)
        output.append("<plist version=\"1.0\">\n")
        writeValue(.dictionary(entries), level: level + 2, depth: 0, to: &output)
        output.appendIndent(level + 1)
        output.append("</plist>\n")
        output.appendIndent(level)
        output.append("</metadata>\n")
    }

    /// Appends one value on its own line(s), at indentation `level` and property-list nesting `depth`.
    private static func writeValue(_ value: PropertyListValue, level: Int, depth: Int, to output: inout XMLOutputBuffer) {
        output.appendIndent(level)
        switch value {
        case .string(let text):
            output.append("<string>")
            XMLStringEscaping.writeEntityEscaped(text, to: &output)
            output.append("</string>")
        case .integer(let number):
            output.append("<integer>")
            output.appendDecimal(number)
            output.append("</integer>")
        case .real(let number):
            output.append("<real>")
            output.append(string: XMLNumberFormatting.shortest(number))
            output.append("</real>")
        case .boolean(let flag):
            output.append(flag ? "<true></true>" : "<false></false>")
        case .date(let date):
            output.append("<date>")
            output.append(string: XMLValueParsing.plistDateString(date))
            output.append("</date>")
        case .data(let bytes):
            output.append("<data>")
            bytes.withUnsafeBytes { output.appendPlistBase64($0, tabs: depth) }
            output.append("</data>")
        case .array(let values):
            guard !values.isEmpty else {
                output.append("<array></array>\n")
                return
            }
            output.append("<array>\n")
            for element in values { writeValue(element, level: level + 1, depth: depth + 1, to: &output) }
            output.appendIndent(level)
            output.append("</array>")
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                output.append("<dict></dict>\n")
                return
            }
            output.append("<dict>\n")
            for (key, element) in entries.sorted(by: { precedes($0.key, $1.key) }) {
                output.appendIndent(level + 1)
                output.append("<key>")
                XMLStringEscaping.writeEntityEscaped(key, to: &output)
                output.append("</key>\n")
                writeValue(element, level: level + 1, depth: depth + 1, to: &output)
            }
            output.appendIndent(level)
            output.append("</dict>")
        }
        output.append(0x0A)
    }
}
