import Dispatch
import Foundation

/// The ``StateDigest`` of a body's objects section, taken on another thread while the decoder
/// reads the same bytes, for a document that keeps its undo history.
///
/// The digest follows the chunks as they inflate (it waits on the same ``InflateFeed``) and
/// holds back the pages of the ``InflatedBuffer`` it has not hashed yet, so decoding neither
/// waits for the whole body to inflate nor gives back bytes the digest still needs.
// @unchecked Sendable: `body` is only read, by the one hashing thread, in parts the feed says
// are inflated; `digest` is written by that thread before it finishes `work` and read only
// after `work` was waited for.
final class BodyDigest: @unchecked Sendable {
    private let body: UnsafeRawBufferPointer
    private let work = SideWork()
    private var digest: [UInt8]?

    /// Starts hashing `range` of `body` (body offsets), reading each part once `feed` has
    /// inflated it and holding `pages` from the first byte not hashed yet.
    init(of range: Range<Int>, in body: UnsafeRawBufferPointer, feed: InflateFeed, pages: InflatedBuffer?) {
        self.body = body
        pages?.hold(from: range.lowerBound, by: self)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var hasher = StateDigest.Hasher()
            var position = range.lowerBound
            let step = BinaryFormat.chunkSize
            while position < range.upperBound && !work.isStopped {
                let end = min(range.upperBound, (position / step + 1) * step)
                // A chunk that failed is reported by the decoder; the digest just ends.
                guard (try? feed.wait(until: end)) != nil else { break }
                hasher.update(UnsafeRawBufferPointer(rebasing: self.body[position ..< end]))
                position = end
                pages?.hold(from: position, by: self)
            }
            if position == range.upperBound { digest = hasher.finalize() }
            pages?.hold(from: nil, by: self)
            work.finish()
        }
    }

    /// Asks the hashing to end early (the decoder failed); ``wait()`` still waits for it.
    func stop() { work.stop() }

    /// Waits until hashing ended; the digest, or nil when it ended early.
    func wait() -> [UInt8]? {
        work.wait()
        return digest
    }
}
