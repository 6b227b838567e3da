import Foundation

/// The advice to restore a damaged document from its backup: it names `FILE.bak` (the backup
/// a save with ``PersistentStore/Options/keepsBackup`` leaves beside the document) only when
/// that file exists, and otherwise says to use a backup if there is one.
public enum BackupAdvice {
    /// `restore it from notes.outline.bak` when `notes.outline.bak` exists beside `file`,
    /// else `restore it from a backup if there is one`; capitalized to start a sentence.
    public static func restore(_ file: String, capitalized: Bool = false) -> String {
        let text = hasBackup(file) ? "restore it from \(file).bak" : "restore it from a backup if there is one"
        return capitalized ? "R" + text.dropFirst() : text
    }

    /// Whether `FILE.bak` exists and is a file.
    public static func hasBackup(_ file: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: file + ".bak", isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
