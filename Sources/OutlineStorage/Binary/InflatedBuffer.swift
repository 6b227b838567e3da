import Foundation
import OutlineEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The buffer an inflated body is decoded from, mapped straight from the kernel so the decoder
/// can hand back the pages it has finished with, and keep the ones the graph goes on using.
///
/// Decoding reads the body front to back and copies what it keeps into the graph's columns, so
/// without this the whole inflated body (50 MB for 1,000,000 outline items) would stay resident
/// beside the graph it turns into. ``release(below:)`` drops the pages before an offset, which
/// keeps the peak close to the size of the finished graph. While other threads still read the
/// body behind the decoder (the digest of a document with a history), ``hold(from:by:)`` keeps
/// the pages each has not read yet.
///
/// The values of string and binary columns are not copied: ``share(_:)`` hands their bytes to
/// the column as they are (``OutlineEngine/SharedBytes``), their pages are never released by
/// the decoder, and the mapping lives on until the last column sharing it is gone.
// @unchecked Sendable: `released`, `requested`, `holds` and `kept` are read and written only
// while holding `lock`; `bytes` is written by the inflating threads in disjoint chunks.
final class InflatedBuffer: @unchecked Sendable {
    /// The usable bytes (exactly the size asked for).
    let bytes: UnsafeMutableRawBufferPointer
    private let mapping: Mapping
    /// Offsets below this have been given back already (or are kept).
    private var released = 0
    /// The offset the decoder asked to give back below.
    private var requested = 0
    /// Per reader behind the decoder: pages at or after its offset are kept whatever was requested.
    private var holds: [ObjectIdentifier: Int] = [:]
    /// Byte ranges shared with columns, in increasing order: their pages are never released here.
    private var kept: [Range<Int>] = []
    private let lock = NSLock()
    static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// The pages themselves, unmapped when neither the buffer nor any shared bytes need them.
    private final class Mapping: @unchecked Sendable {
        let start: UnsafeMutableRawPointer
        let size: Int

        init(start: UnsafeMutableRawPointer, size: Int) {
            self.start = start
            self.size = size
        }

        deinit { munmap(start, size) }
    }

    /// Maps `count` zeroed bytes; nil when the system refuses (out of address space).
    init?(count: Int) {
        let size = max(count, 1)
        let rounded = (size + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        guard let pointer = mmap(nil, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            pointer != MAP_FAILED
        else { return nil }
        mapping = Mapping(start: pointer, size: rounded)
        bytes = UnsafeMutableRawBufferPointer(start: pointer, count: count)
    }

    /// Gives the whole pages below `offset` back to the system (those not held or kept). The
    /// caller must not read those bytes again: they read as zeros afterwards.
    func release(below offset: Int) {
        lock.lock()
        defer { lock.unlock() }
        requested = max(requested, offset)
        releaseLocked()
    }

    /// Keeps the pages at and after `offset` for `reader` until its next call moves the mark on
    /// (`nil`: it holds none any more), then gives back what ``release(below:)`` asked for and
    /// no reader holds.
    func hold(from offset: Int?, by reader: AnyObject) {
        lock.lock()
        defer { lock.unlock() }
        holds[ObjectIdentifier(reader)] = offset
        releaseLocked()
    }

    /// The bytes of `range` (not yet released), shared from now on: their pages stay until the
    /// returned value and every other sharing the mapping are gone. Each value gives back its
    /// own whole pages when it goes (those no neighbour shares).
    func share(_ range: Range<Int>) -> SharedBytes {
        lock.lock()
        precondition(range.lowerBound >= released && range.upperBound <= bytes.count, "InflatedBuffer: sharing released bytes")
        if let last = kept.last, last.upperBound >= range.lowerBound {
            kept[kept.count - 1] = min(last.lowerBound, range.lowerBound) ..< max(last.upperBound, range.upperBound)
        } else {
            kept.append(range)
        }
        lock.unlock()
        let piece = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[range])
        return SharedBytes(piece, keeper: mapping) { piece in
            guard let base = piece.baseAddress else { return }
            let address = Int(bitPattern: base)
            let first = (address + Self.pageSize - 1) / Self.pageSize * Self.pageSize
            let end = (address + piece.count) / Self.pageSize * Self.pageSize
            if end > first { _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, MADV_DONTNEED) }
        }
    }

    private func releaseLocked() {
        let limit = min(requested, holds.values.min() ?? Int.max, bytes.count)
        let end = limit / Self.pageSize * Self.pageSize
        guard end > released else { return }
        // Between the kept ranges: the pages that hold no kept byte.
        var from = released
        for range in kept where range.upperBound > from && range.lowerBound < end {
            let keepStart = range.lowerBound / Self.pageSize * Self.pageSize
            if keepStart > from { _ = madvise(mapping.start + from, keepStart - from, MADV_DONTNEED) }
            from = max(from, (range.upperBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize)
        }
        if end > from { _ = madvise(mapping.start + from, end - from, MADV_DONTNEED) }
        released = max(end, released)
    }
}
