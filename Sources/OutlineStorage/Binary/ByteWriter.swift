import Foundation

/// An append-only byte buffer with the encodings of the binary format: LEB128 varints,
/// zigzag varints, little-endian fixed-width integers and doubles, length-prefixed strings.
///
/// `write...` appends; nothing is ever read back from a writer. A writer either grows one
/// buffer (``bytes`` returns it) or, made with a ``DeflatePipeline``, hands each full
/// ``BinaryFormat/chunkSize`` chunk to the pipeline as soon as it is full, so that a body is
/// deflated while it is still being encoded and never exists whole in memory.
///
/// The storage is a raw buffer (one capacity check per value, no copy-on-write checks), so
/// a writer cannot be copied.
struct ByteWriter: ~Copyable {
    /// The current buffer; in a pipeline's writer, the pipeline owns it.
    private var base: UnsafeMutablePointer<UInt8>
    /// Bytes the current buffer holds before the writer must grow it or hand a chunk on; a
    /// pipeline's buffers have ``slack`` bytes more, so small values never straddle chunks.
    private var capacity: Int
    /// Bytes written to the current buffer.
    private var used = 0
    /// Bytes handed to the pipeline before the current buffer.
    private var handedOff = 0
    private let pipeline: DeflatePipeline?
    /// The digest being taken: the offset it started at and the offset hashed up to.
    private var digest: (hasher: StateDigest.Hasher, origin: Int, start: Int)?

    /// Room a pipeline's buffers keep past the chunk size, more than any single small write
    /// (a varint is at most 10 bytes, a double or a UUID 8 or 16).
    static let slack = 16

    init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        pipeline = nil
    }

    /// A writer whose full chunks go to `pipeline` (see ``DeflatePipeline``).
    init(streamingTo pipeline: DeflatePipeline) {
        self.pipeline = pipeline
        base = pipeline.buffer()
        capacity = BinaryFormat.chunkSize + Self.slack
    }

    deinit {
        if pipeline == nil { base.deallocate() }
    }

    /// Bytes written so far.
    var count: Int { handedOff + used }

    /// The bytes written, of a writer without a pipeline.
    var bytes: [UInt8] {
        precondition(pipeline == nil, "ByteWriter: the bytes of a streaming writer went to its pipeline")
        return Array(UnsafeBufferPointer(start: base, count: used))
    }

    @inline(__always) private mutating func room(_ n: Int) {
        if used + n > capacity { makeRoom(n) }
    }

    private mutating func makeRoom(_ n: Int) {
        if pipeline != nil {
            precondition(n <= Self.slack, "ByteWriter: a small write of \(n) bytes")
            spill()
        } else {
            grow(to: max(capacity * 2, used + n))
        }
    }

    private mutating func grow(to size: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        bigger.update(from: base, count: used)
        base.deallocate()
        base = bigger
        capacity = size
    }

    /// Hands the first chunk of the current buffer to the pipeline and carries what was
    /// written past it (at most ``slack`` bytes) into a fresh buffer.
    private mutating func spill() {
        guard let pipeline else { return }
        let size = BinaryFormat.chunkSize
        precondition(used >= size, "ByteWriter: spilling a chunk that is not full")
        hashChunk(upTo: size)
        let full = base
        let carried = used - size
        base = pipeline.buffer()
        base.update(from: full + size, count: carried)
        pipeline.submit(full, count: size)
        handedOff += size
        used = carried
    }

    /// Feeds the digest the bytes of the current buffer from where it starts up to `end`.
    private mutating func hashChunk(upTo end: Int) {
        guard let (current, origin, start) = digest else { return }
        var hasher = current
        let from = max(0, start - handedOff)
        if end > from { hasher.update(UnsafeRawBufferPointer(start: base + from, count: end - from)) }
        digest = (hasher, origin, max(start, handedOff + end))
    }

    @inline(__always) mutating func writeByte(_ byte: UInt8) {
        room(1)
        base[used] = byte
        used += 1
    }

    /// Appends `value` as an unsigned LEB128 varint: 7 bits per byte, low bits first, 1 to 10 bytes.
    @inline(__always) mutating func writeVarint(_ value: UInt64) {
        room(10)
        var v = value
        while v >= 0x80 {
            base[used] = UInt8(truncatingIfNeeded: v) | 0x80
            used += 1
            v >>= 7
        }
        base[used] = UInt8(truncatingIfNeeded: v)
        used += 1
    }

    @inline(__always) mutating func writeVarint(_ value: Int) {
        precondition(value >= 0, "ByteWriter: negative count \(value)")
        writeVarint(UInt64(value))
    }

    /// Appends `value` zigzag-encoded (0, -1, 1, -2, ... become 0, 1, 2, 3, ...) as a varint.
    @inline(__always) mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inline(__always) private mutating func writeFixed<T: FixedWidthInteger>(_ value: T) {
        room(MemoryLayout<T>.size)
        UnsafeMutableRawPointer(base + used).storeBytes(of: value.littleEndian, as: T.self)
        used += MemoryLayout<T>.size
    }

    mutating func writeUInt16(_ value: UInt16) { writeFixed(value) }

    mutating func writeUInt32(_ value: UInt32) { writeFixed(value) }

    mutating func writeUInt64(_ value: UInt64) { writeFixed(value) }

    @inline(__always) mutating func writeDouble(_ value: Double) { writeFixed(value.bitPattern) }

    /// Appends `raw`, cut across chunks as needed.
    mutating func writeBytes(_ raw: UnsafeRawBufferPointer) {
        guard var source = raw.baseAddress, raw.count > 0 else { return }
        var left = raw.count
        if pipeline == nil {
            room(left)
            (base + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: left)
            used += left
            return
        }
        let size = BinaryFormat.chunkSize
        while left > 0 {
            if used >= size { spill() }
            let n = min(left, size - used)
            (base + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: n)
            used += n
            left -= n
            source += n
        }
    }

    /// Appends the bytes of an array, slice or `Data`.
    mutating func writeBytes(_ raw: some ContiguousBytes) { raw.withUnsafeBytes { writeBytes($0) } }

    /// Appends the UTF-8 of `string`, preceded by its length as a varint.
    mutating func writeString(_ string: String) {
        var copy = string
        copy.withUTF8 { utf8 in
            writeVarint(utf8.count)
            writeBytes(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Overwrites 4 bytes at `offset` with `value`, little-endian (for sizes and checksums known
    /// late); in a pipeline's writer, `offset` must lie in the current buffer or the first chunk
    /// (which the pipeline holds until ``finish()``).
    mutating func patchUInt32(_ value: UInt32, at offset: Int) {
        patch(value, at: offset)
    }

    /// Overwrites 8 bytes at `offset` with `value`, little-endian; see ``patchUInt32(_:at:)``.
    mutating func patchUInt64(_ value: UInt64, at offset: Int) {
        patch(value, at: offset)
    }

    private mutating func patch<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        let size = MemoryLayout<T>.size
        precondition(offset >= 0 && offset + size <= count, "ByteWriter: patching bytes not written yet")
        precondition(digest.map { offset + size <= $0.origin } ?? true, "ByteWriter: patching bytes a digest covers")
        if offset >= handedOff {
            UnsafeMutableRawPointer(base + (offset - handedOff)).storeBytes(of: value.littleEndian, as: T.self)
        } else {
            precondition(offset + size <= handedOff, "ByteWriter: a patch across a handed-off chunk")
            pipeline?.patch(value.littleEndian, at: offset)
        }
    }

    /// Starts taking the ``StateDigest`` of the bytes written from here on (which no patch may
    /// change: a streaming writer hashes each chunk as it leaves).
    mutating func startDigest() {
        digest = (StateDigest.Hasher(), count, count)
    }

    /// The digest of the bytes written since ``startDigest()``.
    mutating func finishDigest() -> [UInt8] {
        hashChunk(upTo: used)
        guard let (hasher, _, _) = digest else { preconditionFailure("ByteWriter: no digest was started") }
        digest = nil
        return hasher.finalize()
    }

    /// Hands what the current buffer holds to the pipeline as the body's last chunk and
    /// returns the compressed chunks (see ``DeflatePipeline/finish(last:count:)``).
    consuming func finish() -> [ChunkCompression.Piece] {
        guard let pipeline else { preconditionFailure("ByteWriter: finish() is for a pipeline's writer") }
        if used > BinaryFormat.chunkSize { spill() }
        return pipeline.finish(last: base, count: used)
    }
}
