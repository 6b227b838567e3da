import BenchZlib

/// The floors of the binary format, on the very bytes the library wrote: reading the file and
/// inflating every chunk on one thread (open), and deflating the same body at the same level
/// on one thread plus a durable atomic write (save). Nothing is decoded, checked or built.
///
/// The library inflates and deflates the chunks on all cores (`DispatchQueue.concurrentPerform`),
/// so on two cores it can beat these single-threaded floors.
enum BinaryFloor {
    /// Reads the document at `path` and inflates its body into one buffer; returns the body.
    ///
    /// - Throws: ``BenchmarkError`` when the file is not a binary document or a chunk does not inflate.
    @discardableResult
    static func readAndInflate(_ path: String) throws -> (body: [UInt8], framing: BinaryFraming, header: ArraySlice<UInt8>) {
        let file = try PlainFile.readAll(path)
        return try file.withUnsafeBytes { bytes in
            let framing = try BinaryFraming(bytes)
            let body = try [UInt8](unsafeUninitializedCapacity: framing.inflatedSize) { output, initialized in
                var filled = 0
                for chunk in framing.chunks {
                    guard let source = bytes.baseAddress, let target = output.baseAddress else { break }
                    var length = uLongf(chunk.size)
                    let status = uncompress(
                        target + filled, &length,
                        source.assumingMemoryBound(to: Bytef.self) + chunk.offset, uLong(chunk.storedSize))
                    guard status == Z_OK, Int(length) == chunk.size else {
                        throw BenchmarkError("chunk at byte \(chunk.offset) does not inflate (zlib \(status))")
                    }
                    filled += chunk.size
                }
                initialized = filled
            }
            return (body, framing, file[..<framing.bodyOffset])
        }
    }

    /// Deflates `body` in the chunk sizes of `framing` at `level` on one thread, puts `header`
    /// in front and writes the result to `path` atomically and durably; returns the bytes written.
    @discardableResult
    static func deflateAndWrite(
        _ body: [UInt8], framing: BinaryFraming, header: ArraySlice<UInt8>,
        level: Int, to path: String
    ) throws -> Int {
        let bound = header.count + framing.chunks.reduce(0) { $0 + Int(compressBound(uLong($1.size))) }
        let file = try [UInt8](unsafeUninitializedCapacity: bound) { output, initialized in
            guard let target = output.baseAddress else { return }
            _ = UnsafeMutableBufferPointer(rebasing: output[..<header.count]).initialize(from: header)
            var written = header.count
            var read = 0
            try body.withUnsafeBufferPointer { input in
                guard let source = input.baseAddress else { return }
                for chunk in framing.chunks {
                    var length = uLongf(bound - written)
                    let status = compress2(target + written, &length, source + read, uLong(chunk.size), Int32(level))
                    guard status == Z_OK else { throw BenchmarkError("deflate failed (zlib \(status))") }
                    written += Int(length)
                    read += chunk.size
                }
            }
            initialized = written
        }
        try PlainFile.writeAtomically(file, to: path)
        return file.count
    }
}
