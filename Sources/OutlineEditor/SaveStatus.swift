/// Whether the document's edits are on disk, as the status line shows it.
public enum SaveStatus: Equatable, Sendable {
    /// Everything is saved.
    case saved
    /// There are edits not saved yet.
    case unsaved
    /// A save is writing.
    case saving
    /// The last save failed for this reason; the edits are kept and the next save retries.
    case failed(String)

    /// The words on the status line: `Saved`, `Not saved`, `Saving…`, `Not saved: <why>`.
    public var label: String {
        switch self {
        case .saved: "Saved"
        case .unsaved: "Not saved"
        case .saving: "Saving…"
        case .failed(let why): "Not saved: \(why)"
        }
    }
}
