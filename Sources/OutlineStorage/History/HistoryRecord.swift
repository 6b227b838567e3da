import OutlineEngine

/// The undo history as a document keeps it: the steps, how many to keep, and a digest of the
/// objects they were recorded on (``StateDigest``), by which a reader knows whether another
/// program changed the objects since.
struct HistoryRecord: Equatable {
    /// SHA-256 of the objects the history belongs to (``StateDigest``).
    var stateDigest: [UInt8]
    /// How many steps the document keeps (1 to ``HistoryLimits/maximumSteps``).
    var stepLimit: Int
    var history: UndoHistory
}

/// A history as read from a document, not yet decoded: the bytes of the binary history
/// section (with the digest of the objects section they were read beside), or the value of
/// the XML store's metadata key.
enum StoredHistory: Sendable {
    case binary(payload: [UInt8], objectsDigest: [UInt8])
    case xml(PropertyListValue)
}

/// A history on its way into a file: the encoded record, and whether the writer fills in the
/// digest of the objects it writes (a history carried unread keeps its own).
struct HistoryPayload: Sendable {
    var bytes: [UInt8]
    var fillsDigest: Bool
}

/// The history a save writes, taken on the thread that owns the store and encoded by the save
/// job (off the editing actor for a ``DocumentContainer``): the encoding of a long history
/// takes time in the changes it holds.
enum HistoryToWrite: Sendable {
    /// Bytes as read, carried unread (they keep their own digest).
    case carried(HistoryPayload)
    /// Steps to encode, keeping the nearest `stepLimit`; `undescribed` steps the context had
    /// could not be given in stable terms and count as left out.
    case steps(UndoHistory, stepLimit: Int, undescribed: Int)

    /// The payload, and how many steps it leaves out to stay within ``HistoryLimits``.
    func encoded() -> (payload: HistoryPayload, leftOut: Int) {
        switch self {
        case .carried(let payload):
            return (payload, 0)
        case .steps(let history, let stepLimit, let undescribed):
            let (bytes, leftOut) = HistoryCoding.encode(history, stepLimit: stepLimit)
            return (HistoryPayload(bytes: bytes, fillsDigest: true), undescribed + leftOut)
        }
    }
}
