import Foundation

extension BinaryHeader {
    /// Reads and checks the prelude and header at the start of `bytes`, which need not hold the body.
    ///
    /// Checks, in order: magic, major version, header size against the limit and the bytes
    /// present, the header CRC-32, then each section. Chunk sizes are checked against the body
    /// limit and zlib's maximum expansion, so a decompression bomb is refused here.
    static func read(_ bytes: UnsafeRawBufferPointer, file: String, limits: StoreLimits) throws -> BinaryHeader {
        let magic = BinaryFormat.magic
        guard bytes.count > 0 else {
            throw BinaryError.truncated(file, at: "byte 0", "the file is empty (expected at least \(BinaryFormat.preludeSize) bytes)")
        }
        guard bytes.prefix(magic.count).elementsEqual(magic.prefix(bytes.count)) else { throw BinaryError.notBinary(file) }
        var cursor = ByteCursor(bytes, file: file, region: .file, context: "the prelude")
        try cursor.need(BinaryFormat.preludeSize)
        try cursor.skip(magic.count)
        let major = try cursor.readUInt16()
        let minor = try cursor.readUInt16()
        guard major == BinaryFormat.majorVersion else {
            throw BinaryError.unsupported(
                file, at: "byte 8",
                "the file has format version \(major).\(minor); this version reads \(BinaryFormat.majorVersion).x")
        }
        let headerSize = Int(try cursor.readUInt32())
        let storedCRC = try cursor.readUInt32()
        guard headerSize <= limits.maximumHeaderSize else {
            throw BinaryError.limit(file, at: "byte 12", "the header declares \(headerSize) bytes, over the limit of \(limits.maximumHeaderSize)")
        }
        cursor.context = "the header"
        try cursor.need(headerSize)
        let headerBytes = try cursor.readBytes(headerSize)
        let crc = Zlib.crc32(headerBytes, startingWith: Zlib.crc32(UnsafeRawBufferPointer(rebasing: bytes[..<16])))
        guard crc == storedCRC else {
            throw BinaryError.checksum(file, at: "byte 16", "the header checksum does not match (stored \(hex(storedCRC)), computed \(hex(crc)))")
        }

        var header = BinaryHeader(
            minorVersion: minor, uuid: UUID(), nextObjectID: 0, compressionLevel: 0, chunks: [],
            versionHashes: [], versionIdentifiers: [], modelName: "", modelContents: "",
            objectCounts: [], custom: [])
        header.size = BinaryFormat.preludeSize + headerSize
        var headerCursor = ByteCursor(headerBytes, file: file, region: .checkedFile, origin: BinaryFormat.preludeSize, context: "the header")
        let sections = try SectionTable.read(&headerCursor, place: "the header") { BinaryFormat.HeaderSection(rawValue: $0)?.name }
        for section in BinaryFormat.HeaderSection.allCases {
            guard var sectionCursor = sections.first(where: { $0.id == section.rawValue })?.cursor else {
                throw headerCursor.corrupt("the header has no \(section.name) section", at: 0)
            }
            try header.decode(section, from: &sectionCursor, limits: limits)
            try sectionCursor.expectEnd()
        }
        try header.checkAgainstStoredSize(limits: limits, file: file)
        return header
    }

    /// Refuses a body that would inflate, or objects that would take, far more than the file
    /// is big: zeros compress about 1000:1, so a small file could otherwise claim gigabytes.
    /// Runs before anything is inflated or allocated for the body.
    private func checkAgainstStoredSize(limits: StoreLimits, file: String) throws {
        let stored = storedBodySize
        let inflated = bodySize
        guard inflated <= limits.maximumInflatedSize(storedBytes: stored) else {
            throw BinaryError.limit(
                file, at: "byte \(size)",
                "the body declares \(inflated) bytes inflated from \(stored) compressed ones, more than "
                    + "\(limits.maximumInflateRatio) times as many (the limit past \(StoreLimits.inflateAllowance) bytes)")
        }
        var objects = 0
        for (_, count) in objectCounts {
            let (sum, overflow) = objects.addingReportingOverflow(count)
            objects = overflow ? .max : sum
        }
        guard objects <= limits.maximumObjects(storedBytes: stored) else {
            throw BinaryError.limit(
                file, at: "byte \(size)",
                "the header declares \(objects) objects in a body of \(stored) compressed bytes, more than "
                    + "\(limits.maximumObjectsPerStoredByte) per byte (the limit past \(StoreLimits.objectAllowance) objects)")
        }
    }

    private mutating func decode(_ section: BinaryFormat.HeaderSection, from c: inout ByteCursor, limits: StoreLimits) throws {
        switch section {
        case .info:
            let raw = try c.readBytes(16)
            uuid = UUID(
                uuid: (
                    raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                    raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                ))
            let nextAt = c.position
            nextObjectID = try c.readVarint()
            guard nextObjectID <= BinaryFormat.maximumObjectID + 1 else {
                throw c.corrupt("the next object id \(nextObjectID) is over the largest allowed id", at: nextAt)
            }
            let level = try c.readByte()
            guard level <= 9 else { throw c.corrupt("the compression level is \(level), not 0 to 9", at: c.position - 1) }
            compressionLevel = Int(level)
            let encoding = try c.readByte()
            guard encoding == BinaryFormat.zlibChunks else {
                throw BinaryError.unsupported(
                    c.file, at: c.location(of: c.position - 1), "the body uses encoding \(encoding), which this version does not know")
            }
            try decodeChunks(from: &c, limits: limits)
        case .versions:
            hashesVersion = try c.readCount("the version hashes version", limit: Int(Int32.max), minimumBytesEach: 0)
            let count = try c.readCount("the number of version hashes", limit: 1 << 16, minimumBytesEach: 33)
            for _ in 0 ..< count {
                let name = try c.readString("an entity name")
                let at = c.position
                let hash = Data(try c.readBytes(32))
                if versionHashes.contains(where: { $0.name == name }) {
                    throw c.corrupt("entity \"\(name)\" has two version hashes", at: at)
                }
                versionHashes.append((name, hash))
            }
            let identifiers = try c.readCount("the number of version identifiers", limit: 1 << 16)
            for _ in 0 ..< identifiers { versionIdentifiers.append(try c.readString("a version identifier")) }
            let hasFramework = try c.readByte()
            guard hasFramework <= 1 else { throw c.corrupt("the framework version flag is \(hasFramework), not 0 or 1", at: c.position - 1) }
            frameworkVersion = hasFramework == 1 ? try c.readSignedVarint() : nil
        case .model:
            modelName = try c.readString("the model name")
            modelContents = try c.readString("the embedded model", limit: StoreLimits.maximumModelBytes)
        case .counts:
            let count = try c.readCount("the number of entities", limit: 1 << 16, minimumBytesEach: 2)
            for _ in 0 ..< count {
                let name = try c.readString("an entity name")
                let at = c.position
                let objects = try c.readCount("the object count of entity \(name)", limit: BinaryFormat.maximumRows, minimumBytesEach: 0)
                if objectCounts.contains(where: { $0.name == name }) {
                    throw c.corrupt("entity \"\(name)\" is counted twice", at: at)
                }
                objectCounts.append((name, objects))
            }
        case .custom:
            let count = try c.readCount("the number of custom metadata keys", limit: 1 << 20, minimumBytesEach: 2)
            for _ in 0 ..< count {
                let at = c.position
                let key = try c.readString("a custom metadata key")
                if custom.contains(where: { $0.key == key }) {
                    throw c.corrupt("custom metadata key \"\(key)\" appears twice", at: at)
                }
                custom.append((key, try PropertyListCoding.read(from: &c, key: key)))
            }
            // What the XML reader accepts too: no key twice in a dictionary, dates in range, the size.
            try StoreLimits.checkMetadata(custom, file: c.file, at: c.location(of: 0), reading: true)
        }
    }

    private mutating func decodeChunks(from c: inout ByteCursor, limits: StoreLimits) throws {
        let start = c.position
        let count = try c.readCount("the chunk count", limit: 1 << 24, minimumBytesEach: 6)
        var total = 0
        for index in 0 ..< count {
            let at = c.position
            let stored = try c.readCount("the compressed size of chunk \(index + 1)", limit: Int(UInt32.max), minimumBytesEach: 0)
            let size = try c.readCount("the size of chunk \(index + 1)", limit: Int(UInt32.max), minimumBytesEach: 0)
            let crc = try c.readUInt32()
            guard stored > 0 else { throw c.corrupt("chunk \(index + 1) is empty", at: at) }
            guard size <= stored * BinaryFormat.maximumCompressionRatio else {
                throw c.limit(
                    "chunk \(index + 1) declares \(size) bytes inflated from \(stored) compressed bytes, "
                        + "more than zlib can expand (\(BinaryFormat.maximumCompressionRatio):1)", at: at)
            }
            total += size
            chunks.append(Chunk(storedSize: stored, size: size, crc: crc))
        }
        guard total <= limits.maximumBodySize else {
            throw c.limit("the body declares \(total) bytes inflated, over the limit of \(limits.maximumBodySize)", at: start)
        }
    }
}

func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: false)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
