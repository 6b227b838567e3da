import Foundation

@testable import OutlineStorage

/// Builds damaged or unusual binary documents from valid ones, with correct checksums where
/// the damage is meant to get past them.
enum BinaryCrafting {
    /// `file` with its body inflated, changed by `transform`, and compressed again (checksums fixed).
    static func rewritingBody(_ file: [UInt8], level: Int = 6, _ transform: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var header = try file.withUnsafeBytes { try BinaryHeader.read($0, file: "t", limits: .default) }
        var body = try file.withUnsafeBytes { bytes in
            try ChunkCompression.withInflatedBody(bytes, header: header, file: "t") { body, _ in Array(body) }
        }
        transform(&body)
        let pieces = body.withUnsafeBytes { ChunkCompression.deflate($0, level: level) }
        header.chunks = pieces.map(\.chunk)
        return header.encoded() + pieces.flatMap(\.bytes)
    }

    /// `file` with its header changed by `transform` and encoded again (checksum fixed); the body is kept.
    static func rewritingHeader(_ file: [UInt8], _ transform: (inout BinaryHeader) -> Void) throws -> [UInt8] {
        var header = try file.withUnsafeBytes { try BinaryHeader.read($0, file: "t", limits: .default) }
        let body = file[header.size...]
        transform(&header)
        return header.encoded() + body
    }

    /// `file` with one more header section, given by id, flags and payload (checksum fixed).
    static func addingHeaderSection(_ file: [UInt8], id: UInt64, required: Bool, payload: [UInt8]) throws -> [UInt8] {
        let header = try file.withUnsafeBytes { try BinaryHeader.read($0, file: "t", limits: .default) }
        var cursor = file.withUnsafeBytes { ByteCursor(UnsafeRawBufferPointer(rebasing: $0[20 ..< header.size]), file: "t", region: .checkedFile) }
        let count = Int(try cursor.readVarint())
        let tableEnd = cursor.position + count * 10  // each existing entry: 1-byte id, 1-byte flags, 8-byte length
        var out = ByteWriter()
        out.writeVarint(count + 1)
        out.writeBytes(file[(20 + cursor.position) ..< (20 + tableEnd)])
        out.writeVarint(id)
        out.writeVarint(required ? BinaryFormat.requiredFlag : 0)
        out.writeUInt64(UInt64(payload.count))
        out.writeBytes(file[(20 + tableEnd) ..< header.size])
        out.writeBytes(payload)
        var prelude = Array(file[0 ..< 20])
        withUnsafeBytes(of: UInt32(out.count).littleEndian) { prelude.replaceSubrange(12 ..< 16, with: $0) }
        let crc = out.bytes.withUnsafeBytes { body in
            prelude.withUnsafeBytes { Zlib.crc32(body, startingWith: Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0[0 ..< 16]))) }
        }
        withUnsafeBytes(of: crc.littleEndian) { prelude.replaceSubrange(16 ..< 20, with: $0) }
        return prelude + out.bytes + file[header.size...]
    }

    /// The file offset where the body starts.
    static func bodyOffset(_ file: [UInt8]) throws -> Int {
        try file.withUnsafeBytes { try BinaryHeader.read($0, file: "t", limits: .default).size }
    }
}
