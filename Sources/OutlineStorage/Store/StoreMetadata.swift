import Foundation
import OutlineEngine

/// What a document says about itself, readable without loading its objects.
public struct StoreMetadata: Sendable, Equatable {
    /// Metadata keys Core Data writes itself; everything else is a custom key.
    public static let reservedKeys: Set<String> = [
        "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
        "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest", "NSStoreType", "NSStoreUUID",
        "NSStoreModelVersionChecksumKey", StoreMetadata.embeddedModelKey, StoreMetadata.embeddedModelNameKey,
        StoreMetadata.derivedModelKey, StoreMetadata.undoHistoryKey,
    ]
    /// The metadata key under which a document embeds its model (Xcode `contents` XML, as a string).
    public static let embeddedModelKey = "OutlineEmbeddedModel"
    /// The metadata key holding the embedded model's version name (such as `Outline 3`).
    public static let embeddedModelNameKey = "OutlineEmbeddedModelName"
    /// The metadata key that marks an embedded model as derived from the data (see
    /// ``isSchemaDerived``); its value is ``sourceVersionHashes``, a dictionary of data.
    public static let derivedModelKey = "OutlineDerivedModel"
    /// The metadata key under which a Core Data XML store keeps the document's undo history
    /// (`Docs/UndoHistory.md`); binary documents keep it in a section of their body instead.
    public static let undoHistoryKey = "OutlineUndoHistory"

    /// The `NSPersistenceFrameworkVersion` written when a document has none of its own (both formats).
    public static let defaultFrameworkVersion: Int64 = 1251

    /// The format the document was read from or will be written in.
    public var format: DocumentFormat
    /// The store's UUID (upper-case in XML files).
    public var uuid: UUID
    /// Entity name -> 32-byte version hash, as stored in the file.
    public var versionHashes: [String: Data]
    /// The model's version identifiers (`NSStoreModelVersionIdentifiers`).
    public var versionIdentifiers: [String]
    /// The schema the document embeds, if any (Apple's files embed none).
    public var embeddedSchema: Schema?
    /// Live object counts per entity name, when the format records them (binary) or after a load.
    public var objectCounts: [String: Int]?
    /// Keys Core Data does not reserve, as found in the file, in file order.
    public var custom: [(key: String, value: PropertyListValue)]
    /// Core Data's `NSPersistenceFrameworkVersion`, when present.
    public var frameworkVersion: Int64?
    /// The next object id number the file declares (`nextObjectID`).
    public var nextObjectID: UInt64?
    /// Binary documents: the zlib level the body was written with.
    public var compressionLevel: Int?
    /// Binary documents: size of the body once inflated.
    public var uncompressedSize: Int?
    /// Whether the document's schema was derived from its data because the file came without
    /// its model (a Core Data XML store of another app), rather than read from an Xcode model.
    /// A derived schema has every entity and property the data shows, with the types the file
    /// states, all optional; documents written with it embed it and are marked so.
    public var isSchemaDerived = false
    /// While ``isSchemaDerived``: the version hashes the file recorded for the model it was
    /// first written with (empty when it recorded none). They identify that app's model, which
    /// a derived schema cannot reproduce, so XML stores keep writing them (the app can still
    /// open them) and readers do not check them against the derived schema.
    public var sourceVersionHashes: [String: Data] = [:]
    /// XML stores: the value of ``undoHistoryKey`` as read, or to be written (not decoded here).
    var undoHistory: PropertyListValue?

    /// Metadata with the given fields; a new document usually gives only the format and the
    /// schema to embed.
    public init(
        format: DocumentFormat, uuid: UUID = UUID(), versionHashes: [String: Data] = [:],
        versionIdentifiers: [String] = [], embeddedSchema: Schema? = nil,
        objectCounts: [String: Int]? = nil, custom: [(key: String, value: PropertyListValue)] = [],
        frameworkVersion: Int64? = nil, nextObjectID: UInt64? = nil,
        compressionLevel: Int? = nil, uncompressedSize: Int? = nil
    ) {
        self.format = format
        self.uuid = uuid
        self.versionHashes = versionHashes
        self.versionIdentifiers = versionIdentifiers
        self.embeddedSchema = embeddedSchema
        self.objectCounts = objectCounts
        self.custom = custom
        self.frameworkVersion = frameworkVersion
        self.nextObjectID = nextObjectID
        self.compressionLevel = compressionLevel
        self.uncompressedSize = uncompressedSize
    }

    /// The value of custom key `key`.
    public subscript(custom key: String) -> PropertyListValue? {
        get { custom.first { $0.key == key }?.value }
        set {
            if let index = custom.firstIndex(where: { $0.key == key }) {
                if let newValue { custom[index].value = newValue } else { custom.remove(at: index) }
            } else if let newValue {
                custom.append((key, newValue))
            }
        }
    }

    /// Whether every field is equal, custom entries compared in order.
    public static func == (lhs: StoreMetadata, rhs: StoreMetadata) -> Bool {
        lhs.format == rhs.format && lhs.uuid == rhs.uuid && lhs.versionHashes == rhs.versionHashes
            && lhs.versionIdentifiers == rhs.versionIdentifiers && lhs.embeddedSchema == rhs.embeddedSchema
            && lhs.objectCounts == rhs.objectCounts && lhs.frameworkVersion == rhs.frameworkVersion
            && lhs.nextObjectID == rhs.nextObjectID && lhs.compressionLevel == rhs.compressionLevel
            && lhs.uncompressedSize == rhs.uncompressedSize
            && lhs.isSchemaDerived == rhs.isSchemaDerived && lhs.sourceVersionHashes == rhs.sourceVersionHashes
            && lhs.custom.count == rhs.custom.count
            && zip(lhs.custom, rhs.custom).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
