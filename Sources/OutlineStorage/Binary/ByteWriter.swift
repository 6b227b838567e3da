/// An append-only byte buffer with the encodings of the binary format: LEB128 varints,
/// zigzag varints, little-endian fixed-width integers and doubles, length-prefixed strings.
///
/// `write...` appends; nothing is ever read back from a writer.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func reserve(_ more: Int) { bytes.reserveCapacity(bytes.count + more) }

    @inline(__always) mutating func writeByte(_ byte: UInt8) { bytes.append(byte) }

    /// Appends `value` as an unsigned LEB128 varint: 7 bits per byte, low bits first, 1 to 10 bytes.
    @inline(__always) mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always) mutating func writeVarint(_ value: Int) {
        precondition(value >= 0, "ByteWriter: negative count \(value)")
        writeVarint(UInt64(value))
    }

    /// Appends `value` zigzag-encoded (0, -1, 1, -2, ... become 0, 1, 2, 3, ...) as a varint.
    @inline(__always) mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func writeUInt16(_ value: UInt16) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func writeUInt32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    @inline(__always) mutating func writeDouble(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func writeBytes(_ raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    mutating func writeBytes(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Appends the UTF-8 of `string`, preceded by its length as a varint.
    mutating func writeString(_ string: String) {
        var copy = string
        copy.withUTF8 { utf8 in
            writeVarint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends `payload` preceded by its length as a varint.
    mutating func writeBlock(_ payload: [UInt8]) {
        writeVarint(payload.count)
        bytes.append(contentsOf: payload)
    }

    /// Overwrites 4 bytes at `offset` with `value`, little-endian (for sizes and checksums known late).
    mutating func patchUInt32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for i in 0 ..< 4 { bytes[offset + i] = raw[i] }
        }
    }
}

extension ByteWriter {
    mutating func writeUInt64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { writeBytes($0) }
    }

    /// Overwrites 8 bytes at `offset` with `value`, little-endian.
    mutating func patchUInt64(_ value: UInt64, at offset: Int) {
        patchUInt32(UInt32(truncatingIfNeeded: value), at: offset)
        patchUInt32(UInt32(truncatingIfNeeded: value >> 32), at: offset + 4)
    }
}
