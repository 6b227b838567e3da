import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The buffer an inflated body is decoded from, mapped straight from the kernel so the decoder
/// can hand back the pages it has finished with.
///
/// Decoding reads the body front to back and copies what it keeps into the graph's columns, so
/// without this the whole inflated body (50 MB for 1,000,000 outline items) would stay resident
/// beside the graph it turns into. ``release(below:)`` drops the pages before an offset, which
/// keeps the peak close to the size of the finished graph. While other threads still read the
/// body behind the decoder (the digest of a document with a history, the copies of string
/// columns), ``hold(from:by:)`` keeps the pages each has not read yet.
// @unchecked Sendable: `released`, `requested` and `holds` are read and written only while
// holding `lock`; `bytes` is written by the inflating threads in disjoint chunks.
final class InflatedBuffer: @unchecked Sendable {
    /// The usable bytes (exactly the size asked for).
    let bytes: UnsafeMutableRawBufferPointer
    private let mapping: UnsafeMutableRawPointer?
    private let mappedSize: Int
    /// Offsets below this have been given back already.
    private var released = 0
    /// The offset the decoder asked to give back below.
    private var requested = 0
    /// Per reader behind the decoder: pages at or after its offset are kept whatever was requested.
    private var holds: [ObjectIdentifier: Int] = [:]
    private let lock = NSLock()
    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Maps `count` zeroed bytes; nil when the system refuses (out of address space).
    init?(count: Int) {
        let size = max(count, 1)
        let rounded = (size + InflatedBuffer.pageSize - 1) / InflatedBuffer.pageSize * InflatedBuffer.pageSize
        guard let pointer = mmap(nil, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            pointer != MAP_FAILED
        else { return nil }
        mapping = pointer
        mappedSize = rounded
        bytes = UnsafeMutableRawBufferPointer(start: pointer, count: count)
    }

    deinit {
        if let mapping { munmap(mapping, mappedSize) }
    }

    /// Gives the whole pages below `offset` back to the system (those not held). The caller
    /// must not read those bytes again: they read as zeros afterwards.
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

    private func releaseLocked() {
        let limit = min(requested, holds.values.min() ?? Int.max, bytes.count)
        let end = limit / InflatedBuffer.pageSize * InflatedBuffer.pageSize
        guard end > released, let mapping else { return }
        _ = madvise(mapping + released, end - released, MADV_DONTNEED)
        released = end
    }
}
