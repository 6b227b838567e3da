internal import CZlib

/// zlib at the edge: whole-buffer deflate and inflate, and CRC-32. No zlib type leaves this file.
enum Zlib {
    /// The outcome of inflating one stream into a buffer of exactly the declared size.
    enum InflateResult: Equatable {
        case ok
        /// The input ended before the stream did; `consumed` input bytes were used.
        case inputEnded(consumed: Int)
        /// The stream holds more data than the declared size (output full, stream not ended).
        case streamLonger(consumed: Int)
        /// The stream ended after `produced` bytes, fewer than declared.
        case streamShorter(produced: Int)
        /// The stream ended `consumed` bytes into the input, before its end.
        case trailingInput(consumed: Int)
        /// zlib found invalid data (bad code, bad header) near input byte `consumed`.
        case invalid(consumed: Int, reason: String)
    }

    /// The CRC-32 (ISO 3309, as in gzip and PNG) of `bytes`.
    static func crc32(_ bytes: UnsafeRawBufferPointer, startingWith crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        let value = CZlib.crc32_z(UInt(crc), base.assumingMemoryBound(to: UInt8.self), bytes.count)
        return UInt32(truncatingIfNeeded: value)
    }

    /// The zlib stream (RFC 1950) of `input` at `level` (0 stores, 1 is fastest, 9 smallest).
    static func deflate(_ input: UnsafeRawBufferPointer, level: Int) -> [UInt8] {
        precondition((0 ... 9).contains(level), "zlib compression level \(level) is not in 0...9")
        precondition(input.count <= Int(UInt32.max), "deflate input too large for one call")
        var stream = z_stream()
        let status = outline_deflateInit(&stream, Int32(level))
        defer { CZlib.deflateEnd(&stream) }  // safe after a failed init too
        precondition(status == Z_OK, "deflateInit failed (\(status)): out of memory")
        let bound = Int(CZlib.deflateBound(&stream, UInt(input.count)))
        return [UInt8](unsafeUninitializedCapacity: bound) { output, written in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = UInt32(input.count)
            stream.next_out = output.baseAddress
            stream.avail_out = UInt32(bound)
            let result = CZlib.deflate(&stream, Z_FINISH)
            precondition(result == Z_STREAM_END, "deflate did not finish within deflateBound (\(result))")
            written = bound - Int(stream.avail_out)
        }
    }

    /// Inflates the zlib stream `input` into `output`, which must be filled exactly.
    ///
    /// The two-byte zlib header is checked here and the deflate data inflated raw, then the
    /// Adler-32 trailer is compared with the output's, unless `checkingSum` is false: a caller
    /// that checked a CRC-32 over the stored bytes first (the binary body's chunks; see
    /// `Docs/BinaryFormat.md`, "Checksums") gains nothing from the sum, which costs about 6% of
    /// inflating (deflate is deterministic: the same stored bytes give the same output).
    static func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, checkingSum: Bool = true
    ) -> InflateResult {
        precondition(input.count <= Int(UInt32.max) && output.count <= Int(UInt32.max), "inflate buffers too large for one call")
        let headerSize = 2
        let trailerSize = 4
        guard input.count >= headerSize else { return .inputEnded(consumed: input.count) }
        let method = input[0]
        let flags = input[1]
        guard (UInt16(method) << 8 | UInt16(flags)) % 31 == 0 else {
            return .invalid(consumed: 0, reason: "incorrect header check")
        }
        guard method & 0x0F == 8 else { return .invalid(consumed: 0, reason: "unknown compression method") }
        guard method >> 4 <= 7 else { return .invalid(consumed: 0, reason: "invalid window size") }
        guard flags & 0x20 == 0 else { return .invalid(consumed: headerSize, reason: "the stream asks for a preset dictionary") }
        var stream = z_stream()
        let started = outline_inflateInitRaw(&stream, Int32(method >> 4) + 8)
        defer { CZlib.inflateEnd(&stream) }  // safe after a failed init too
        guard started == Z_OK else {
            return .invalid(consumed: 0, reason: "zlib could not start (out of memory)")
        }
        let data = UnsafeRawBufferPointer(rebasing: input[headerSize...])
        var spare: UInt8 = 0
        var overflowed = false
        let status: Int32 = withUnsafeMutablePointer(to: &spare) { sparePointer in
            stream.next_in = UnsafeMutablePointer(mutating: data.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = UInt32(data.count)
            stream.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? sparePointer
            stream.avail_out = UInt32(output.count)
            let status = CZlib.inflate(&stream, Z_FINISH)
            guard status == Z_BUF_ERROR || status == Z_OK, stream.avail_out == 0, stream.avail_in > 0 else { return status }
            // The output is full but the stream goes on: offer one spare byte to tell a stream
            // that only has its trailer left from one that holds more data than declared.
            stream.next_out = sparePointer
            stream.avail_out = 1
            let again = CZlib.inflate(&stream, Z_FINISH)
            overflowed = stream.avail_out == 0
            return again
        }
        let consumed = headerSize + data.count - Int(stream.avail_in)
        let produced = Int(stream.total_out)
        switch status {
        case Z_STREAM_END where !overflowed:
            if produced < output.count { return .streamShorter(produced: produced) }
            let left = input.count - consumed
            if left < trailerSize { return .inputEnded(consumed: input.count) }
            if left > trailerSize { return .trailingInput(consumed: consumed + trailerSize) }
            if checkingSum {
                let stored = UInt32(bigEndian: input.loadUnaligned(fromByteOffset: consumed, as: UInt32.self))
                let computed =
                    output.baseAddress.map { base in
                        UInt32(
                            truncatingIfNeeded: CZlib.adler32_z(CZlib.adler32_z(0, nil, 0), base.assumingMemoryBound(to: UInt8.self), output.count))
                    } ?? 1
                if stored != computed { return .invalid(consumed: consumed, reason: "incorrect data check") }
            }
            return .ok
        case _ where overflowed:
            return .streamLonger(consumed: consumed)
        case Z_BUF_ERROR, Z_OK:
            return .inputEnded(consumed: consumed)
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            return .invalid(consumed: consumed, reason: reason)
        }
    }
}
