import Foundation

/// The advice to restore a damaged document from its backup: it names a backup (`FILE.bak`,
/// or `FILE.1.bak`, ... that a save with ``PersistentStore/Options/keepsBackup`` leaves beside
/// the document, see ``KeptBackup``) only when one exists, the most recently written of them,
/// and otherwise says to use a backup if there is one.
public enum BackupAdvice {
    /// `restore it from notes.outline.bak` (or the newest `notes.outline.N.bak`) when such a
    /// backup exists beside `file`, else `restore it from a backup if there is one`;
    /// `object` replaces `it` (`the file`) where the sentence names something else first;
    /// capitalized to start a sentence.
    public static func restore(_ file: String, object: String = "it", capitalized: Bool = false) -> String {
        let text =
            newestBackup(of: file).map { "restore \(object) from \($0)" } ?? "restore \(object) from a backup if there is one"
        return capitalized ? "R" + text.dropFirst() : text
    }

    /// Whether a backup of `file` exists and is a file.
    public static func hasBackup(_ file: String) -> Bool {
        newestBackup(of: file) != nil
    }

    /// The most recently modified of `FILE.bak`, `FILE.1.bak`, ... that is a file, if any.
    /// Backups take the first free number, so the search stops after a run of missing ones.
    public static func newestBackup(of file: String) -> String? {
        var newest: (path: String, modified: Date)?
        var missing = 0
        for number in 0 ..< KeptBackup.maximumCount where missing < 8 {
            let path = KeptBackup.name(of: file, number: number)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
                missing += 1
                continue
            }
            missing = 0
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            if modified > newest?.modified ?? .distantPast { newest = (path, modified) }
        }
        return newest?.path
    }
}
