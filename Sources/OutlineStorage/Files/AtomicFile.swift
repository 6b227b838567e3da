#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Atomic, durable replacement of a file: readers see the old file or the new one, never a mix,
/// and once ``write(_:to:keepBackup:)`` returns the new file survives a crash or power loss.
///
/// The bytes go to a temporary file in the same folder (named `.NAME.outline-tmp-XXXXXX`),
/// which is synced, given the target's permissions and renamed over the target; then the
/// folder is synced. On any failure before the rename the temporary file is removed and the
/// target is untouched. A path that is a symbolic link is resolved: the link's target is
/// replaced and the link stays a link.
public enum AtomicFile {
    /// The part of a temporary file's name between the document name and the random suffix.
    public static let temporaryMarker = ".outline-tmp-"

    /// Replaces the file at `path` with `bytes`.
    ///
    /// - Parameters:
    ///   - keepBackup: first keep the current file as `NAME.bak` beside it (a hard link when the
    ///     file system allows, else a copy), replacing an older backup.
    ///   - file: how messages name the document; `path` when nil.
    /// - Throws: ``StorageError`` `unwritable` saying what failed and why (permission denied,
    ///   disk full, read-only file system, is a folder, ...).
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String, keepBackup: Bool = false, file: String? = nil) throws {
        let file = file ?? path
        let target = try resolveLinks(path, file: file)
        let existing = try SystemCall.status(target, .writing, file: file)
        if let existing, !existing.isRegularFile {
            throw FileError.make(existing.isDirectory ? EISDIR : EINVAL, .writing, file: file, "cannot save over \(target)")
        }
        let (folder, name) = split(target)
        let temporary = try writeTemporary(bytes, in: folder, for: name, like: existing, file: file)
        do {
            if keepBackup && existing != nil {
                try makeBackup(of: target, file: file)
            }
            try SystemCall.renameFile(temporary, target, file: file, "cannot replace \(target)")
        } catch {
            try? SystemCall.removeFile(temporary, file: file, "")
            throw error
        }
        try SystemCall.syncDirectory(folder, file: file)
    }

    /// Replaces the file at `path` with `bytes`; see ``write(_:to:keepBackup:file:)-(UnsafeRawBufferPointer,_,_,_)``.
    public static func write(_ bytes: [UInt8], to path: String, keepBackup: Bool = false, file: String? = nil) throws {
        try bytes.withUnsafeBytes { try write($0, to: path, keepBackup: keepBackup, file: file) }
    }

    /// Removes the temporary files that interrupted saves of `path` left in its folder.
    ///
    /// Only files named like this module's temporary files for this document are touched.
    /// - Parameter age: only files last modified at least this many seconds ago, so that a save
    ///   in progress in another process is left alone.
    /// - Returns: the paths removed.
    @discardableResult
    public static func removeStaleTemporaries(beside path: String, olderThan age: Double = 60) throws -> [String] {
        let target = try resolveLinks(path, file: path)
        let (folder, name) = split(target)
        let prefix = ".\(name)\(temporaryMarker)"
        let now = Date().timeIntervalSince1970
        var removed: [String] = []
        for entry in try SystemCall.listDirectory(folder, file: path) where isTemporaryName(entry, prefix: prefix) {
            let candidate = folder == "/" ? "/\(entry)" : "\(folder)/\(entry)"
            guard let status = try SystemCall.status(candidate, followingLinks: false, .writing, file: path),
                  status.isRegularFile, now - status.modified >= age else { continue }
            try SystemCall.removeFile(candidate, file: path, "cannot remove the stale temporary file \(candidate)")
            removed.append(candidate)
        }
        return removed
    }

    // MARK: Steps

    static func isTemporaryName(_ entry: String, prefix: String) -> Bool {
        guard entry.hasPrefix(prefix) else { return false }
        let suffix = entry.utf8.dropFirst(prefix.utf8.count)
        return suffix.count == 6 && suffix.allSatisfy { isAlphanumeric($0) }
    }

    private static func isAlphanumeric(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    /// Writes `bytes` to a new temporary file beside `name`, with the owner and permissions of
    /// `existing`, and flushes it to disk. On failure the temporary file is removed.
    /// - Returns: the temporary file's path.
    private static func writeTemporary(_ bytes: UnsafeRawBufferPointer, in folder: String, for name: String,
                                       like existing: SystemCall.Status?, file: String) throws -> String {
        let (temporary, fd) = try createTemporary(in: folder, for: name, file: file)
        defer { SystemCall.closeQuietly(fd) }  // write errors surface at fsync, before this close
        do {
            try SystemCall.writeAll(fd, bytes, file: file, "cannot write the temporary file \(temporary)")
            if let existing {
                // Owner first: changing it clears the set-id bits that the mode then restores.
                if existing.owner != geteuid() || existing.group != getegid(),
                   !SystemCall.changeOwner(fd, owner: existing.owner, group: existing.group) {
                    SystemCall.changeOwner(fd, owner: UInt32.max, group: existing.group)
                }
                try SystemCall.changeMode(fd, existing.permissions, file: file, "cannot set the permissions of \(temporary)")
            }
            try SystemCall.syncFile(fd, file: file, "cannot flush the temporary file \(temporary) to disk")
        } catch {
            try? SystemCall.removeFile(temporary, file: file, "")
            throw error
        }
        return temporary
    }

    /// Creates `.NAME.outline-tmp-XXXXXX` in `folder` with a fresh random suffix.
    private static func createTemporary(in folder: String, for name: String, file: String) throws -> (String, Int32) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for _ in 0 ..< 100 {
            let suffix = String(decoding: (0 ..< 6).map { _ in alphabet.randomElement() ?? 0x41 }, as: UTF8.self)
            let path = "\(folder == "/" ? "" : folder)/.\(name)\(temporaryMarker)\(suffix)"
            if let fd = try SystemCall.createExclusive(path, mode: 0o666, file: file, "cannot create a temporary file in \(folder)") {
                return (path, fd)
            }
        }
        throw FileError.make(EEXIST, .writing, file: file, "cannot create a temporary file in \(folder)")
    }

    /// Makes `TARGET.bak` the current content of `target`: a hard link, or a copy where links fail.
    private static func makeBackup(of target: String, file: String) throws {
        let backup = target + ".bak"
        try SystemCall.removeFile(backup, file: file, "cannot replace the backup \(backup)")
        guard SystemCall.hardLink(target, backup) != nil else { return }
        let contents = try FileReader.read(target, file: file)
        try contents.withUnsafeBytes { try write($0, to: backup, keepBackup: false, file: file) }
    }

    /// `path` with every symbolic link along the final component followed, so the file
    /// written is the one the link points to. Relative link targets are taken from the link's folder.
    static func resolveLinks(_ path: String, file: String) throws -> String {
        var current = path
        for _ in 0 ..< 40 {
            guard let status = try SystemCall.status(current, followingLinks: false, .writing, file: file),
                  status.isSymbolicLink else { return current }
            let destination = try SystemCall.readLink(current, file: file)
            current = destination.hasPrefix("/") ? destination : "\(split(current).folder)/\(destination)"
        }
        throw FileError.make(ELOOP, .writing, file: file, "cannot follow the symbolic link \(path)")
    }

    /// The folder (`.` for a bare name) and the last component of `path`.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
