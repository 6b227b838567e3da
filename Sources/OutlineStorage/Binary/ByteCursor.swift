import OutlineEngine

/// A bounds-checked reader over bytes that throws ``StorageError`` instead of reading past its end.
///
/// `read...` consumes bytes; `peek...` only looks. Every failure names the byte offset and what
/// was being read (``context``), so a damaged or hostile file gives a message, never a crash.
/// Counts read with ``readCount(_:limit:minimumBytesEach:)`` are checked against a limit and
/// against the bytes left, so a caller can allocate for them safely.
struct ByteCursor {
    /// Where the bytes come from, which decides how offsets and early ends are reported.
    enum Region {
        /// Raw file bytes: offsets are `byte N`, running out means the file is truncated.
        case file
        /// A checksummed part of the file: offsets are `byte N`, running out means corruption.
        case checkedFile
        /// The inflated body: offsets are `body byte N`, running out means corruption.
        case body
        /// A document's undo history: offsets are `history byte N`, running out means corruption.
        case history
    }

    private let base: UnsafeRawPointer?
    /// Index one past the last readable byte.
    let end: Int
    /// Index one past the last byte that is there already: `end`, unless `feed` is still
    /// filling the buffer.
    private var ready: Int
    /// What fills the buffer while it is read (nil when all of it is there); positions plus
    /// `origin` are its offsets.
    private let feed: InflateFeed?
    /// Index of the next byte to read.
    private(set) var position: Int
    /// Added to positions in messages (the offset of the buffer within the file).
    let origin: Int
    let region: Region
    /// The file name messages start with.
    let file: String
    /// What is being read, for messages: "the id column of entity Item".
    var context: String

    /// A cursor over `buffer`; with `feed`, over a buffer still being filled, whose bytes are
    /// read only once `feed` says they are there.
    init(
        _ buffer: UnsafeRawBufferPointer, file: String, region: Region, origin: Int = 0, context: String = "the data",
        feed: InflateFeed? = nil, ready: Int? = nil
    ) {
        self.base = buffer.baseAddress
        self.end = buffer.count
        self.feed = feed
        self.ready = feed == nil ? buffer.count : max(0, min(buffer.count, ready ?? 0))
        self.position = 0
        self.origin = origin
        self.region = region
        self.file = file
        self.context = context
    }

    /// A cursor over the next `count` bytes only, which this cursor skips (without waiting
    /// for them to be there).
    mutating func subcursor(_ count: Int, context: String) throws -> ByteCursor {
        guard count >= 0, count <= end - position else { throw endError(count) }
        let sub = ByteCursor(
            UnsafeRawBufferPointer(start: base.map { $0 + position }, count: count),
            file: file, region: region, origin: origin + position, context: context,
            feed: feed, ready: ready - position)
        position += count
        return sub
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position == end }

    /// The location of the next byte, as messages print it.
    var location: String { location(of: position) }

    func location(of index: Int) -> String {
        switch region {
        case .body: "body byte \(origin + index)"
        case .history: "history byte \(origin + index)"
        case .file, .checkedFile: "byte \(origin + index)"
        }
    }

    // MARK: Errors

    /// The error for a value that is present but wrong, at the position before it was read.
    func corrupt(_ message: String, at index: Int? = nil) -> StorageError {
        BinaryError.corrupt(file, at: location(of: index ?? position), message)
    }

    func limit(_ message: String, at index: Int? = nil) -> StorageError {
        BinaryError.limit(file, at: location(of: index ?? position), message)
    }

    private func endError(_ wanted: Int) -> StorageError {
        let message = "\(context) ends early (expected \(BinaryError.bytes(wanted - remaining)))"
        if region == .file { return BinaryError.truncated(file, at: location(of: end), message) }
        return BinaryError.corrupt(file, at: location(of: end), message)
    }

    /// Checks that `count` more bytes exist and waits until they are there.
    @inline(__always) mutating func need(_ count: Int) throws {
        guard count >= 0, count <= end - position else { throw endError(count) }
        if count > ready - position { try fill(count) }
    }

    /// Waits for the feed until the next `count` bytes (which exist) are there.
    private mutating func fill(_ count: Int) throws {
        guard let feed else { return }
        ready = min(end, try feed.wait(until: origin + position + count) - origin)
    }

    // MARK: Reading

    @inline(__always) mutating func readByte() throws -> UInt8 {
        if position >= ready && position < end { try fill(1) }
        guard position < ready, let base else { throw endError(1) }
        let byte = base.load(fromByteOffset: position, as: UInt8.self)
        position += 1
        return byte
    }

    /// The next `count` bytes (fewer when fewer are left), not consumed.
    mutating func peekBytes(_ count: Int) throws -> UnsafeRawBufferPointer {
        let count = min(count, remaining)
        try need(count)
        return UnsafeRawBufferPointer(start: base.map { $0 + position }, count: count)
    }

    /// Reads an unsigned LEB128 varint of at most 10 bytes that fits in 64 bits.
    @inline(__always) mutating func readVarint() throws -> UInt64 {
        if position < ready, let base {
            let first = base.load(fromByteOffset: position, as: UInt8.self)
            if first < 0x80 {
                position += 1
                return UInt64(first)
            }
        }
        return try readLongVarint()
    }

    private mutating func readLongVarint() throws -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            if position >= ready && position < end { try fill(1) }
            guard position < ready, let base else {
                position = start
                throw endError(remaining + 1)
            }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            if shift == 63 && byte > 1 {
                throw corrupt("a number in \(context) does not fit in 64 bits", at: start)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// Reads a zigzag-encoded signed varint.
    @inline(__always) mutating func readSignedVarint() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Reads a count and checks it: at most `limit`, and at least `minimumBytesEach` bytes left per
    /// item, so that allocating `count` items is bounded by the size of the input.
    mutating func readCount(_ what: @autoclosure () -> String, limit: Int, minimumBytesEach: Int = 1) throws -> Int {
        let start = position
        let raw = try readVarint()
        guard raw <= UInt64(limit) else {
            throw self.limit("\(what()) is \(raw), over the limit of \(limit)", at: start)
        }
        let count = Int(raw)
        if minimumBytesEach > 0 && count > remaining / minimumBytesEach {
            throw corrupt("\(what()) is \(count), more than the \(BinaryError.byteCount(remaining)) left in \(context) can hold", at: start)
        }
        return count
    }

    mutating func readUInt16() throws -> UInt16 {
        try need(2)
        let value = base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: position, as: UInt16.self)
        position += 2
        return UInt16(littleEndian: value)
    }

    mutating func readUInt32() throws -> UInt32 {
        try need(4)
        let value = base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: position, as: UInt32.self)
        position += 4
        return UInt32(littleEndian: value)
    }

    mutating func readDouble() throws -> Double {
        try need(8)
        let value = base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return Double(bitPattern: UInt64(littleEndian: value))
    }

    /// The next `count` bytes, consumed. The buffer is valid as long as the cursor's input.
    mutating func readBytes(_ count: Int) throws -> UnsafeRawBufferPointer {
        try need(count)
        let bytes = UnsafeRawBufferPointer(start: base.map { $0 + position }, count: count)
        position += count
        return bytes
    }

    mutating func skip(_ count: Int) throws {
        try need(count)
        position += count
    }

    /// Reads a varint length and that many bytes of valid UTF-8.
    mutating func readString(_ what: @autoclosure () -> String, limit: Int = 1 << 24) throws -> String {
        let start = position
        let count = try readCount("the length of \(what())", limit: limit, minimumBytesEach: 0)
        let bytes = try readBytes(count)
        guard UTF8Validation.isValid(bytes) else {
            throw corrupt("\(what()) is not valid UTF-8", at: start)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws unless every byte has been read.
    func expectEnd() throws {
        guard position == end else {
            throw corrupt("\(BinaryError.byteCount(remaining)) left over at the end of \(context)")
        }
    }
}

extension ByteCursor {
    mutating func readUInt64() throws -> UInt64 {
        let low = try readUInt32()
        let high = try readUInt32()
        return UInt64(high) << 32 | UInt64(low)
    }
}
