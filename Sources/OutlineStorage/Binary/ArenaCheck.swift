import Dispatch
import OutlineEngine

/// The values of a string column (its arena), checked as text on another thread while the
/// decoder reads on past them.
///
/// The column shares the arena's bytes where they were inflated (``InflatedBuffer/share(_:)``)
/// instead of copying them, and the decoder knows where the arena ends from the lengths
/// before it, so it need not wait for the arena to inflate: it starts a check and goes on with
/// the next column. The check follows the chunks as they inflate (waiting on the same
/// ``InflateFeed``, and inflating chunks itself when it would wait) and checks the text as
/// ``BodyDecoder`` would: valid UTF-8, every value starting on a character boundary.
// @unchecked Sendable: `pieces` are only read, by the one checking thread, in parts the feed
// says are inflated; `outcome` is written by that thread before it finishes `work` and read
// only after `work` was waited for.
final class ArenaCheck: @unchecked Sendable {
    /// How a check ended.
    enum Outcome {
        /// Every value is text (or the column is not text).
        case valid
        /// Some value is not valid UTF-8 (the decoder finds which).
        case invalidText
        /// Stopped early: the decoder failed, or a chunk of the body did not inflate.
        case stopped
    }

    private let work = SideWork()
    private var outcome = Outcome.stopped

    /// Bytes checked between two waits on the feed.
    static let slice = 1 << 20

    /// Starts checking `pieces` (the column's chunks, back to back in the body from body
    /// offset `start`) once inflated; `lengths` are the column's value lengths (-1 for nil).
    /// Without `isText`, only waits for the pieces to inflate.
    init(_ pieces: [SharedBytes], at start: Int, lengths: PagedArray<Int32>, isText: Bool, feed: InflateFeed?) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var offset = start
            var failed = false
            var valid = true
            for piece in pieces where !failed {
                var inflated = 0
                while inflated < piece.bytes.count {
                    let length = min(Self.slice, piece.bytes.count - inflated)
                    // A chunk that failed is reported by the decoder; the check just ends.
                    if work.isStopped || feed.map({ (try? $0.wait(until: offset + inflated + length)) == nil }) == true {
                        failed = true
                        break
                    }
                    inflated += length
                }
                // Each piece as soon as it is there, while the next ones inflate.
                if !failed && isText && valid { valid = UTF8Validation.isValid(piece.bytes) }
                offset += piece.bytes.count
            }
            if !failed {
                outcome = !isText || valid && Self.valuesStartOnCharacters(pieces, lengths: lengths) ? .valid : .invalidText
            }
            work.finish()
        }
    }

    /// Whether every value starts on a character boundary (then, the pieces being valid UTF-8,
    /// each value is valid on its own). A piece holds whole values, in row order.
    private static func valuesStartOnCharacters(_ pieces: [SharedBytes], lengths: PagedArray<Int32>) -> Bool {
        var piece = 0
        var offset = 0
        var valid = true
        lengths.forEachPage { _, lengths in
            for length in lengths where length > 0 && valid {
                while piece < pieces.count && offset + Int(length) > pieces[piece].bytes.count {
                    piece += 1
                    offset = 0
                }
                guard piece < pieces.count else {
                    valid = false
                    return
                }
                if pieces[piece].bytes[offset] & 0xC0 == 0x80 { valid = false }
                offset += Int(length)
            }
        }
        return valid
    }

    /// Asks the check to end early (the decoder failed); ``wait()`` still waits for it.
    func stop() { work.stop() }

    /// Waits until the check ended, and how.
    func wait() -> Outcome {
        work.wait()
        return outcome
    }
}
