/// The bounds of the undo history a document keeps, shared by every reader and writer of it
/// in both formats: writers leave out the oldest steps to stay within them, readers refuse a
/// history beyond them (`limitExceeded`).
///
/// `Docs/UndoHistory.md` gives the reasons.
public enum HistoryLimits {
    /// The steps a document keeps when nothing else is set: the last 100.
    public static let defaultSteps = 100
    /// The most steps a document may be set to keep, undo and redo together: 10,000.
    public static let maximumSteps = 10_000
    /// The most bytes an encoded history may take before compression: 64 MiB. A step that
    /// deleted a large subtree carries every object of it, so this bounds what undo costs in
    /// file size and memory; the oldest steps are left out first.
    public static let maximumBytes = 64 << 20
    /// The longest step name kept, in bytes of UTF-8 (longer names are shortened when written).
    public static let maximumNameBytes = 1024
    /// The most entity and property names one history may use.
    public static let maximumNames = 1 << 16
    /// The most bytes of the compressed history in one `<data>` element of an XML store's
    /// metadata: 4 MiB, about 5.7 MB of base64, within the reader's 10 MB limit of one value.
    public static let xmlPieceBytes = 4 << 20
}
