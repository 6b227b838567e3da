import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Atomic, durable replacement of a file: readers see the old file or the new one, never a mix,
/// and once ``write(_:to:keepBackup:replacing:file:)-([UInt8],_,_,_,_)`` returns the new file survives a crash or power loss.
///
/// The bytes go to a temporary file in the same folder (named `.NAME.outline-tmp-XXXXXX`),
/// which is synced, given the target's permissions and renamed over the target; then the
/// folder is synced. On any failure before the rename the temporary file is removed and the
/// target is untouched; temporary files that killed saves of the same target left behind are
/// removed first (see ``removeStaleTemporaries(beside:olderThan:)``), and a process that
/// handles signals can remove the one being written with ``removeTemporariesInProgress()``. A path that is a symbolic link is resolved: the link's target is
/// replaced and the link stays a link. A target its owner made read-only is not replaced.
///
/// While it saves, the writer holds a shared `flock` on the folder and an exclusive one on its
/// temporary file (from creating it until after the rename), so that
/// ``removeStaleTemporaries(beside:olderThan:)`` can tell the leftovers of a killed save
/// (unlocked) from a save in progress in another process, however recent they are.
public enum AtomicFile {
    /// The part of a temporary file's name between the document name and the random suffix.
    public static let temporaryMarker = ".outline-tmp-"

    /// Replaces the file at `path` with `bytes`.
    ///
    /// - Parameters:
    ///   - keepBackup: first keep the current file as a backup beside it (a hard link when the
    ///     file system allows, else a copy): `NAME.bak`, or the first free `NAME.N.bak` (see
    ///     ``KeptBackup``); an existing backup is never replaced, except `ours`.
    ///   - ours: the backup the previous save of this document made, which may be replaced
    ///     while it is unchanged.
    ///   - file: how messages name the document; `path` when nil.
    ///   - bytes: the file's new content.
    ///   - path: the file to replace (or create); a symbolic link is followed, so its target is replaced.
    /// - Returns: the backup kept, when one was.
    /// - Throws: ``StorageError`` `unwritable` saying what failed and why (permission denied,
    ///   disk full, read-only file system, is a folder, ...).
    @discardableResult
    public static func write(
        _ bytes: UnsafeRawBufferPointer, to path: String, keepBackup: Bool = false,
        replacing ours: KeptBackup? = nil, file: String? = nil
    ) throws -> KeptBackup? {
        try write(to: path, keepBackup: keepBackup, replacing: ours, file: file) { write in try write(bytes) }
    }

    /// Replaces the file at `path` with what `contents` writes, in as many pieces as it likes,
    /// with the same guarantees as ``write(_:to:keepBackup:replacing:file:)-(UnsafeRawBufferPointer,_,_,_,_)``:
    /// the pieces go straight to the temporary file, so no buffer of the whole file is needed.
    ///
    /// - Parameter contents: called once with a function that appends its bytes to the
    ///   temporary file (and throws `unwritable` when that fails); whatever `contents` throws
    ///   removes the temporary file and leaves the target untouched.
    /// - Returns: the backup kept, when one was.
    @discardableResult
    package static func write(
        to path: String, keepBackup: Bool = false, replacing ours: KeptBackup? = nil, file: String? = nil,
        contents: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> KeptBackup? {
        let file = file ?? path
        let target = try resolveLinks(path, file: file)
        // Leftovers of killed saves of this target (a convert interrupted earlier, ...).
        _ = try? removeStaleTemporaries(beside: target)
        let existing = try SystemCall.status(target, .writing, file: file)
        if let existing, !existing.isRegularFile {
            throw FileError.make(existing.isDirectory ? EISDIR : EINVAL, .writing, file: file, "cannot save over \(target)")
        }
        if existing != nil, let refusal = SystemCall.writeAccessError(target) {
            throw FileError.make(refusal, .writing, file: file, "cannot save over \(target)")
        }
        let (folder, name) = split(target)
        // Tells cleaners a save is under way in this folder (see removeStaleTemporaries).
        let folderLock = SystemCall.lockFolderShared(folder)
        defer { folderLock.map(SystemCall.closeQuietly) }
        let (temporary, fd) = try writeTemporary(contents, in: folder, for: name, like: existing, file: file)
        // Closed (and its lock released) only once the temporary file is renamed or removed.
        defer { SystemCall.closeQuietly(fd) }
        var kept: KeptBackup?
        do {
            if keepBackup && existing != nil {
                kept = try makeBackup(of: target, replacing: ours, file: file)
            }
            try TemporaryFiles.renaming(temporary) { try SystemCall.renameFile(temporary, target, file: file, "cannot replace \(target)") }
        } catch {
            try? SystemCall.removeFile(temporary, file: file, "")
            TemporaryFiles.forget(temporary)
            throw error
        }
        try SystemCall.syncDirectory(folder, file: file)
        return kept
    }

    /// Replaces the file at `path` with `bytes`; see ``write(_:to:keepBackup:replacing:file:)-(UnsafeRawBufferPointer,_,_,_,_)``.
    @discardableResult
    public static func write(
        _ bytes: [UInt8], to path: String, keepBackup: Bool = false,
        replacing ours: KeptBackup? = nil, file: String? = nil
    ) throws -> KeptBackup? {
        try bytes.withUnsafeBytes { try write($0, to: path, keepBackup: keepBackup, replacing: ours, file: file) }
    }

    /// Whether a save of this process has put a file in place (for messages about a failure
    /// that came after it: the change is made).
    public static var hasReplacedAFile: Bool { TemporaryFiles.hasReplacedAFile }

    /// Removes the temporary files that saves of this process are writing at this moment, so
    /// that a process ending on a signal (Ctrl-C, `kill`) leaves none behind; their targets
    /// stay as they were. Safe to call from any thread while saves run: each removal is one
    /// `unlink`, and a save whose temporary file is gone fails instead of renaming it.
    ///
    /// - Returns: how many files were removed, and whether a save of this process had already
    ///   replaced its file (so that the process does not report that nothing changed).
    @discardableResult
    public static func removeTemporariesInProgress() -> (removed: Int, replacedAFile: Bool) {
        TemporaryFiles.removeAll()
    }

    /// Removes the temporary files that interrupted saves of `path` left in its folder.
    ///
    /// Only files named like this module's temporary files for this document are touched, and
    /// of those only the ones no process is writing. A save holds a shared lock on the folder
    /// while it works: when nobody holds one, no save is under way and every such file is a
    /// leftover. Otherwise a save holds a lock on its temporary file from the moment it has
    /// created it, so an unlocked one that holds bytes was left by a save that died, however
    /// recently; an unlocked empty one may be a save that has not yet locked it, and is removed
    /// only once it is `age` seconds old.
    /// - Parameter age: while a save is under way in the folder, how old an empty unlocked
    ///   temporary file must be to be removed, in seconds.
    /// - Parameter path: the document whose folder is cleared of its leftover temporary files.
    /// - Returns: the paths removed.
    @discardableResult
    public static func removeStaleTemporaries(beside path: String, olderThan age: Double = 60) throws -> [String] {
        let target = try resolveLinks(path, file: path)
        let (folder, name) = split(target)
        let prefix = ".\(name)\(temporaryMarker)"
        // Held while cleaning: saves wait for it before creating their temporary file.
        let quiet = SystemCall.tryLockFolderExclusively(folder)
        defer { quiet.map(SystemCall.closeQuietly) }
        let age = quiet == nil ? age : -.infinity
        var removed: [String] = []
        for entry in try SystemCall.listDirectory(folder, file: path) where isTemporaryName(entry, prefix: prefix) {
            let candidate = folder == "/" ? "/\(entry)" : "\(folder)/\(entry)"
            if try removeIfAbandoned(candidate, age: age, file: path) { removed.append(candidate) }
        }
        return removed
    }

    /// Removes the temporary file `candidate` when no save is writing it; see ``removeStaleTemporaries(beside:olderThan:)``.
    private static func removeIfAbandoned(_ candidate: String, age: Double, file: String) throws -> Bool {
        guard let fd = try? SystemCall.openFile(candidate, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, .writing, file: file, "") else {
            return false  // gone meanwhile, or not a file we may look at
        }
        defer { SystemCall.closeQuietly(fd) }
        guard try SystemCall.lockExclusively(fd, file: file) != .busy else { return false }
        let status = try SystemCall.fileStatus(fd, file: file)
        guard status.isRegularFile, status.size > 0 || Date().timeIntervalSince1970 - status.modified >= age,
            // Still the file we locked, not renamed into place by a save that just finished.
            let named = try SystemCall.status(candidate, followingLinks: false, .writing, file: file),
            named.device == status.device, named.inode == status.inode
        else { return false }
        try SystemCall.removeFile(candidate, file: file, "cannot remove the stale temporary file \(candidate)")
        return true
    }

    /// Whether `a` and `b` name one existing file (links followed), so that writing one
    /// replaces what the other reads.
    public static func namesSameFile(_ a: String, _ b: String) -> Bool {
        guard let first = try? SystemCall.status(a, .reading, file: a),
            let second = try? SystemCall.status(b, .reading, file: b)
        else { return false }
        return first.device == second.device && first.inode == second.inode
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

    /// Writes what `contents` writes to a new temporary file beside `name`, with the owner and
    /// permissions of `existing`, and flushes it to disk. On failure the temporary file is removed.
    /// - Returns: the temporary file's path and its open, locked descriptor for the caller to close
    ///   (write errors surface at `fsync`, before that close).
    private static func writeTemporary(
        _ contents: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void,
        in folder: String, for name: String,
        like existing: SystemCall.Status?, file: String
    ) throws -> (String, Int32) {
        let (temporary, fd) = try createTemporary(in: folder, for: name, file: file)
        do {
            // Marks the file as being written; an unlocked temporary file is a dead save's leftover.
            _ = try SystemCall.lockExclusively(fd, file: file)
            try contents { bytes in
                try SystemCall.writeAll(fd, bytes, file: file, "cannot write the temporary file \(temporary)")
            }
            if let existing {
                // Owner first: changing it clears the set-id bits that the mode then restores.
                if existing.owner != geteuid() || existing.group != getegid(),
                    !SystemCall.changeOwner(fd, owner: existing.owner, group: existing.group)
                {
                    SystemCall.changeOwner(fd, owner: UInt32.max, group: existing.group)
                }
                try SystemCall.changeMode(fd, existing.permissions, file: file, "cannot set the permissions of \(temporary)")
            }
            try SystemCall.syncFile(fd, file: file, "cannot flush the temporary file \(temporary) to disk")
        } catch {
            try? SystemCall.removeFile(temporary, file: file, "")
            TemporaryFiles.forget(temporary)
            SystemCall.closeQuietly(fd)
            throw error
        }
        return (temporary, fd)
    }

    /// Creates `.NAME.outline-tmp-XXXXXX` in `folder` with a fresh random suffix.
    private static func createTemporary(in folder: String, for name: String, file: String) throws -> (String, Int32) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for _ in 0 ..< 100 {
            let suffix = String(decoding: (0 ..< 6).map { _ in alphabet.randomElement() ?? 0x41 }, as: UTF8.self)
            let path = "\(folder == "/" ? "" : folder)/.\(name)\(temporaryMarker)\(suffix)"
            // Created and registered in one step, so that a signal never finds it unregistered.
            let created = try TemporaryFiles.creating(path) {
                try SystemCall.createExclusive(
                    path, mode: 0o666, file: file, "cannot create a temporary file in \(folder == "." ? "the current folder" : folder)")
            }
            if let fd = created { return (path, fd) }
        }
        throw FileError.make(EEXIST, .writing, file: file, "cannot create a temporary file in \(folder == "." ? "the current folder" : folder)")
    }

    /// Keeps the current content of `target` as a backup: in `ours` when that is still the
    /// backup this document's previous save made, else under the first free name of
    /// `TARGET.bak`, `TARGET.1.bak`, ... (a hard link, or a copy where links fail). A file
    /// that exists under a name is never replaced.
    private static func makeBackup(of target: String, replacing ours: KeptBackup?, file: String) throws -> KeptBackup {
        if let ours, ours.path.hasPrefix(target + "."), ours.path.hasSuffix(".bak"), ours.isUnchanged() {
            try SystemCall.removeFile(ours.path, file: file, "cannot replace the backup \(ours.path)")
            if let kept = try placeBackup(of: target, at: ours.path, file: file) { return kept }
        }
        for number in 0 ..< KeptBackup.maximumCount {
            if let kept = try placeBackup(of: target, at: KeptBackup.name(of: target, number: number), file: file) { return kept }
        }
        throw StorageError(
            .unwritable, file: file,
            "cannot keep a backup: \(KeptBackup.name(of: target, number: 0)) to \(KeptBackup.name(of: target, number: KeptBackup.maximumCount - 1)) all exist",
            hint: "Remove the backups you no longer need and save again; nothing was written.")
    }

    /// Makes `backup` the current content of `target` unless something exists under that name.
    /// - Returns: the backup made, or nil when the name is taken.
    private static func placeBackup(of target: String, at backup: String, file: String) throws -> KeptBackup? {
        switch SystemCall.hardLink(target, backup) {
        case nil:
            break
        case EEXIST?:
            return nil
        default:
            // No hard links here: copy, unless the name is taken (a dangling link counts).
            if try SystemCall.status(backup, followingLinks: false, .writing, file: file) != nil { return nil }
            let contents = try FileReader.read(target, file: file)
            try contents.withUnsafeBytes { _ = try write($0, to: backup, keepBackup: false, file: file) }
        }
        guard let fingerprint = try FileFingerprint.of(backup, file: file) else {
            throw StorageError(
                .unwritable, file: file, "the backup \(backup) disappeared as it was made",
                hint: "Save again; nothing was written.")
        }
        return KeptBackup(path: backup, fingerprint: fingerprint)
    }

    /// `path` with every symbolic link along the final component followed, so the file
    /// written is the one the link points to. Relative link targets are taken from the link's folder.
    static func resolveLinks(_ path: String, file: String) throws -> String {
        var current = path
        for _ in 0 ..< 40 {
            guard let status = try SystemCall.status(current, followingLinks: false, .writing, file: file),
                status.isSymbolicLink
            else { return current }
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
