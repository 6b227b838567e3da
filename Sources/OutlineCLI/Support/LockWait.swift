import ArgumentParser
import Foundation
import OutlineKit
import OutlineTool

/// How long commands that change a document wait for another process editing it.
enum LockWait {
    /// The environment variable that sets the wait, in seconds (`0` tries once).
    static let variable = "OUTLINE_LOCK_TIMEOUT"

    /// `OUTLINE_LOCK_TIMEOUT` when it holds a number of seconds, else OutlineKit's default.
    static var seconds: Double {
        guard let text = ProcessInfo.processInfo.environment[variable], let value = Double(text),
            value.isFinite, value >= 0
        else { return OutlineFile.defaultLockTimeout }
        return value
    }
}

extension DocumentArgument {
    /// The document opened to edit: waits for other editors, then holds its lock until the command ends.
    ///
    /// - Parameter keepingHistory: false saves the document without its undo history (`--no-history`).
    /// - Throws: a usage error for `-`: a document changed in place must be a file.
    func openForEditing(keepingHistory: Bool = true) throws -> OutlineFile {
        if StandardStreams.isStandard(file) {
            throw ValidationError("- (standard input) cannot be edited in place; give the document's file name.")
        }
        return try OutlineFile.openForEditing(file, lockTimeout: LockWait.seconds, keepsHistory: keepingHistory)
    }
}
