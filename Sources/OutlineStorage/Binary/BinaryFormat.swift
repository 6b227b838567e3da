/// Constants of the binary document format. `Docs/BinaryFormat.md` describes every byte; keep
/// the two in step.
enum BinaryFormat {
    /// `89 4F 55 54 4C 49 4E 45`: a byte with the high bit set (catches 7-bit transfers and
    /// tells the file from text), then `OUTLINE`.
    static let magic: [UInt8] = [0x89, 0x4F, 0x55, 0x54, 0x4C, 0x49, 0x4E, 0x45]
    /// Readers refuse a major version they do not know; a new minor version only adds
    /// optional sections, which older readers skip.
    static let majorVersion: UInt16 = 1
    static let minorVersion: UInt16 = 0
    /// Magic (8), major (2), minor (2), header size (4), header CRC-32 (4).
    static let preludeSize = 20
    /// The body is cut into chunks of this many bytes (the last one shorter), each its own
    /// zlib stream, so that both cores can deflate and inflate. Fixed, so output does not
    /// depend on the machine.
    static let chunkSize = 1 << 21
    /// The body is zlib (RFC 1950) chunks. The only encoding of version 1.
    static let zlibChunks: UInt8 = 1
    /// Core Data's `NSStoreModelVersionHashesVersion`.
    static let hashesVersion = 3

    /// Section flag: a reader that does not know the section must refuse the file.
    static let requiredFlag: UInt64 = 1

    /// Sections of the header.
    enum HeaderSection: UInt64, CaseIterable {
        case info = 1
        case versions = 2
        case model = 3
        case counts = 4
        case custom = 5

        var name: String {
            switch self {
            case .info: "info"
            case .versions: "versions"
            case .model: "model"
            case .counts: "counts"
            case .custom: "custom metadata"
            }
        }
    }

    /// Sections of the inflated body.
    enum BodySection: UInt64 {
        case objects = 1
    }

    /// Nil encodings of an attribute column.
    enum Presence: UInt8 {
        /// Every row has a value; no bitmap.
        case allPresent = 0
        /// Every row is nil; no bitmap, no values.
        case allNil = 1
        /// A bitmap of the rows with a value (bit `i % 8` of byte `i / 8`), then their values.
        case bitmap = 2
    }

    /// The largest object id a file may hold (shared with every reader and writer).
    static let maximumObjectID = StoreLimits.maximumObjectID
    /// The most rows one entity may have (shared with every reader and writer).
    static let maximumRows = StoreLimits.maximumObjectsPerEntity
    /// zlib cannot expand one input byte to more than about 1032 output bytes.
    static let maximumCompressionRatio = 1032
}

extension BinaryStore {
    /// The limits of reading and writing; the same for every format (see ``StoreLimits``).
    public typealias Limits = StoreLimits
}
