import Foundation

/// Everything before the body: the prelude and the header sections, readable without inflating.
struct BinaryHeader {
    /// One independently compressed piece of the body.
    struct Chunk: Equatable {
        /// Bytes in the file.
        var storedSize: Int
        /// Bytes once inflated.
        var size: Int
        /// CRC-32 of the stored (compressed) bytes.
        var crc: UInt32
    }

    var minorVersion = BinaryFormat.minorVersion
    var uuid: UUID
    var nextObjectID: UInt64
    var compressionLevel: Int
    var chunks: [Chunk]
    var hashesVersion = BinaryFormat.hashesVersion
    /// Entity name -> 32-byte version hash, sorted by name.
    var versionHashes: [(name: String, hash: Data)]
    var versionIdentifiers: [String]
    var frameworkVersion: Int64?
    /// The embedded model's version name and its Xcode `contents` XML.
    var modelName: String
    var modelContents: String
    /// Objects per entity, in the embedded model's entity order.
    var objectCounts: [(name: String, count: Int)]
    var custom: [(key: String, value: PropertyListValue)]
    /// Prelude plus header: the file offset where the body starts. Set by reading and encoding.
    var size = 0

    var storedBodySize: Int { chunks.reduce(0) { $0 + $1.storedSize } }
    var bodySize: Int { chunks.reduce(0) { $0 + $1.size } }

    /// Checks that a file of `fileSize` bytes holds exactly this header and the body its chunks
    /// declare: a truncated file (`truncated`) or bytes after the body (`corrupt`) are found
    /// from the header alone, before anything is inflated.
    func checkFileSize(_ fileSize: Int, file: String) throws {
        let stored = storedBodySize
        let available = fileSize - size
        guard available >= stored else {
            throw BinaryError.truncated(
                file, at: "byte \(fileSize)",
                "the compressed body ends early (expected \(BinaryError.bytes(stored - available)))")
        }
        guard available == stored else {
            throw BinaryError.corrupt(
                file, at: "byte \(size + stored)",
                "the body is followed by \(BinaryError.byteCount(available - stored)) of unexpected data")
        }
    }

    // MARK: Writing

    /// The prelude and header bytes, with `size` set.
    mutating func encoded() -> [UInt8] {
        var sections: [(BinaryFormat.HeaderSection, [UInt8])] = []
        for section in BinaryFormat.HeaderSection.allCases {
            var payload = ByteWriter()
            encode(section, into: &payload)
            sections.append((section, payload.bytes))
        }
        var header = ByteWriter()
        header.writeVarint(sections.count)
        for (section, payload) in sections {
            header.writeVarint(section.rawValue)
            header.writeVarint(BinaryFormat.requiredFlag)
            header.writeUInt64(UInt64(payload.count))
        }
        for (_, payload) in sections { header.writeBytes(payload) }

        var file = ByteWriter(capacity: BinaryFormat.preludeSize + header.count)
        file.writeBytes(BinaryFormat.magic)
        file.writeUInt16(BinaryFormat.majorVersion)
        file.writeUInt16(minorVersion)
        file.writeUInt32(UInt32(header.count))
        file.writeUInt32(0)
        file.writeBytes(header.bytes)
        let crc = file.bytes.withUnsafeBytes { all in
            Zlib.crc32(
                UnsafeRawBufferPointer(rebasing: all[BinaryFormat.preludeSize...]),
                startingWith: Zlib.crc32(UnsafeRawBufferPointer(rebasing: all[..<16])))
        }
        file.patchUInt32(crc, at: 16)
        size = file.count
        return file.bytes
    }

    private func encode(_ section: BinaryFormat.HeaderSection, into w: inout ByteWriter) {
        switch section {
        case .info:
            withUnsafeBytes(of: uuid.uuid) { w.writeBytes($0) }
            w.writeVarint(nextObjectID)
            w.writeByte(UInt8(compressionLevel))
            w.writeByte(BinaryFormat.zlibChunks)
            w.writeVarint(chunks.count)
            for chunk in chunks {
                w.writeVarint(chunk.storedSize)
                w.writeVarint(chunk.size)
                w.writeUInt32(chunk.crc)
            }
        case .versions:
            w.writeVarint(hashesVersion)
            w.writeVarint(versionHashes.count)
            for (name, hash) in versionHashes {
                w.writeString(name)
                w.writeBytes(hash)
            }
            w.writeVarint(versionIdentifiers.count)
            for identifier in versionIdentifiers { w.writeString(identifier) }
            if let frameworkVersion {
                w.writeByte(1)
                w.writeSignedVarint(frameworkVersion)
            } else {
                w.writeByte(0)
            }
        case .model:
            w.writeString(modelName)
            w.writeString(modelContents)
        case .counts:
            w.writeVarint(objectCounts.count)
            for (name, count) in objectCounts {
                w.writeString(name)
                w.writeVarint(count)
            }
        case .custom:
            w.writeVarint(custom.count)
            for (key, value) in custom {
                w.writeString(key)
                PropertyListCoding.write(value, to: &w)
            }
        }
    }
}
