/// A backup of a document's previous version that a save kept beside it.
///
/// Backups are named `NAME.bak`, or `NAME.1.bak`, `NAME.2.bak`, ... when that name is taken:
/// a save never replaces a file it did not make itself. Which backup is "ours" is known only
/// to the ``PersistentStore`` that made it, in memory: it remembers the backup's path and its
/// identity on disk (device, inode, size, modification time), and its next save that keeps a
/// backup may replace that one file while it still has that identity (a document saved again
/// and again in one session keeps one backup, not a pile). Nothing is remembered across
/// processes, so a backup made by an earlier command, or a `.bak` the user made, is never
/// replaced; the next free name is used instead.
public struct KeptBackup: Sendable, Hashable {
    /// Where the backup is.
    public let path: String
    /// The backup as it was made, to tell whether it is still the same file.
    let fingerprint: FileFingerprint

    /// How many numbered names are tried before a save gives up (`NAME.bak` … `NAME.999.bak`).
    public static let maximumCount = 1000

    /// The name of backup number `number` of `target`: `NAME.bak` for 0, else `NAME.N.bak`.
    public static func name(of target: String, number: Int) -> String {
        number == 0 ? target + ".bak" : "\(target).\(number).bak"
    }

    /// Whether the backup is still the file that was made (not replaced or changed since).
    func isUnchanged() -> Bool {
        (try? FileFingerprint.of(path, file: path)) == fingerprint
    }
}
