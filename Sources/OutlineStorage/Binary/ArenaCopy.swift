import Dispatch
import OutlineEngine

/// The values of a string or binary column (its arena), copied out of the body into the
/// column's chunks on another thread while the decoder reads on past them.
///
/// The decoder knows where the arena ends and how it is cut into chunks from the lengths
/// before it, so it need not wait for the arena to inflate, nor copy it itself: it starts a
/// copy and goes on with the next column. The copy follows the chunks as they inflate (waiting
/// on the same ``InflateFeed``, and inflating chunks itself when it would wait), holds back the
/// pages of the ``InflatedBuffer`` it has not copied yet, and checks the text of a string
/// column as ``BodyDecoder`` would: valid UTF-8, every value starting on a character boundary.
// @unchecked Sendable: `body` is only read, by the one copying thread, in parts the feed says
// are inflated; `reserved` is written before that thread starts and then only by it;
// `outcome` is written by that thread before it finishes `work` and read only after `work`
// was waited for.
final class ArenaCopy: @unchecked Sendable {
    /// How a copy ended.
    enum Outcome {
        /// The chunks, checked.
        case copied([ContiguousArray<UInt8>])
        /// The chunks, of which some value is not valid UTF-8 (the decoder finds which).
        case invalidText([ContiguousArray<UInt8>])
        /// Stopped early: the decoder failed, or a chunk of the body did not inflate.
        case stopped
    }

    private let body: UnsafeRawBufferPointer
    private let work = SideWork()
    private var outcome = Outcome.stopped
    /// The empty chunks with their memory reserved, until the copying thread takes them.
    private var reserved: [ContiguousArray<UInt8>] = []

    /// Bytes copied between two waits on the feed (and two moves of the hold).
    static let slice = 1 << 20

    /// Starts copying `pieces` (offsets in the arena, in order, back to back) of the arena at
    /// body offset `start`; `lengths` are the column's value lengths (-1 for nil), checked as
    /// text when `isText`.
    init(
        _ pieces: [Range<Int>], at start: Int, in body: UnsafeRawBufferPointer, lengths: PagedArray<Int32>, isText: Bool,
        feed: InflateFeed?, pages: InflatedBuffer?
    ) {
        self.body = body
        pages?.hold(from: start, by: self)
        // The chunks' memory is taken here, on the decoder's thread, so that it comes from
        // the memory that thread's earlier work gave back (a thread of its own would map and
        // touch new pages for every document); the copying thread only fills it.
        reserved = pieces.map { piece in
            var chunk = ContiguousArray<UInt8>()
            chunk.reserveCapacity(piece.count)
            return chunk
        }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            // Taken out, so that each chunk has one owner and appending never copies it.
            var chunks: [ContiguousArray<UInt8>] = []
            swap(&chunks, &reserved)
            var failed = false
            for (index, piece) in pieces.enumerated() where !failed {
                var copied = 0
                while copied < piece.count {
                    let from = start + piece.lowerBound + copied
                    let length = min(Self.slice, piece.count - copied)
                    // A chunk that failed is reported by the decoder; the copy just ends.
                    if work.isStopped || feed.map({ (try? $0.wait(until: from + length)) == nil }) == true {
                        failed = true
                        break
                    }
                    // Within the capacity reserved: no new memory.
                    chunks[index].append(contentsOf: UnsafeRawBufferPointer(rebasing: self.body[from ..< from + length]))
                    copied += length
                    pages?.hold(from: from + length, by: self)
                }
            }
            if !failed {
                outcome = !isText || Self.isText(chunks, lengths: lengths) ? .copied(chunks) : .invalidText(chunks)
            }
            pages?.hold(from: nil, by: self)
            work.finish()
        }
    }

    /// Whether every chunk is valid UTF-8 and every value starts on a character boundary
    /// (then each value is valid on its own). A chunk holds whole values, in row order.
    private static func isText(_ chunks: [ContiguousArray<UInt8>], lengths: PagedArray<Int32>) -> Bool {
        for chunk in chunks {
            guard chunk.withUnsafeBytes({ UTF8Validation.isValid($0) }) else { return false }
        }
        var chunk = 0
        var offset = 0
        var valid = true
        lengths.forEachPage { _, lengths in
            for length in lengths where length > 0 && valid {
                while chunk < chunks.count && offset + Int(length) > chunks[chunk].count {
                    chunk += 1
                    offset = 0
                }
                guard chunk < chunks.count else {
                    valid = false
                    return
                }
                if chunks[chunk][offset] & 0xC0 == 0x80 { valid = false }
                offset += Int(length)
            }
        }
        return valid
    }

    /// Asks the copy to end early (the decoder failed); ``wait()`` still waits for it.
    func stop() { work.stop() }

    /// Waits until the copy ended, and how.
    func wait() -> Outcome {
        work.wait()
        return outcome
    }
}
