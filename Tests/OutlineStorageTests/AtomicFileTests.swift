import Foundation
import OutlineStorage
import Testing

@Suite struct AtomicFileTests {
    let folder: String
    init() throws { folder = try makeTemporaryFolder() }

    func contents(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func writesANewFileAndReplacesAnOldOne() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1, 2, 3], to: path)
        #expect(try contents(path) == [1, 2, 3])
        try AtomicFile.write([4, 5], to: path)
        #expect(try contents(path) == [4, 5])
        #expect(try names() == ["notes.outline"])
    }

    @Test func keepsTheOldFileAsBakWhenAsked() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        #expect(try AtomicFile.write([1], to: path, keepBackup: true) == nil)  // nothing to back up yet
        #expect(try names() == ["notes.outline"])
        let first = try AtomicFile.write([2], to: path, keepBackup: true)
        #expect(first?.path == path + ".bak")
        #expect(try contents(path + ".bak") == [1])
        try AtomicFile.write([4], to: path)
        #expect(try contents(path + ".bak") == [1])
    }

    @Test func aBackupItDidNotMakeIsNeverReplaced() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1], to: path)
        try Data([7]).write(to: URL(fileURLWithPath: path + ".bak"))  // the user's own backup
        let kept = try AtomicFile.write([2], to: path, keepBackup: true)
        #expect(kept?.path == path + ".1.bak")
        #expect(try contents(path + ".bak") == [7])
        #expect(try contents(path + ".1.bak") == [1])
        // A later save that knows nothing of it keeps both and takes the next free name.
        let second = try AtomicFile.write([3], to: path, keepBackup: true)
        #expect(second?.path == path + ".2.bak")
        #expect(try contents(path + ".2.bak") == [2])
        // The save after the one that made a backup may replace that backup, and only that one.
        let third = try AtomicFile.write([4], to: path, keepBackup: true, replacing: second)
        #expect(third?.path == path + ".2.bak")
        #expect(try contents(path + ".2.bak") == [3])
        #expect(try contents(path + ".bak") == [7])
        #expect(try contents(path + ".1.bak") == [1])
        // ... unless it changed since: then it is not ours any more.
        try Data([8, 8]).write(to: URL(fileURLWithPath: path + ".2.bak"))
        let fourth = try AtomicFile.write([5], to: path, keepBackup: true, replacing: third)
        #expect(fourth?.path == path + ".3.bak")
        #expect(try contents(path + ".2.bak") == [8, 8])
        #expect(try names() == ["notes.outline", "notes.outline.1.bak", "notes.outline.2.bak", "notes.outline.3.bak", "notes.outline.bak"])
    }

    @Test func keepsTheTargetsPermissions() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1], to: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try AtomicFile.write([2], to: path)
        #expect(try mode(path) == 0o640)
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: path)
        try AtomicFile.write([3], to: path, keepBackup: true)
        #expect(try mode(path) == 0o604)
    }

    @Test func savesThroughASymbolicLink() throws {
        defer { removeFolder(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        let target = folder + "/real/notes.outline"
        try AtomicFile.write([1], to: target)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.outline", withDestinationPath: "real/notes.outline")
        try AtomicFile.write([2], to: folder + "/link.outline", keepBackup: true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.outline") == "real/notes.outline")
        #expect(try contents(target) == [2])
        #expect(try contents(target + ".bak") == [1])
        #expect(try names() == ["link.outline", "real"])
    }

    @Test func aFolderAsTargetFailsAndLeavesNoTemporaryFile() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let error = #expect(throws: StorageError.self) { try AtomicFile.write([1], to: path, file: "notes.outline") }
        #expect(error?.code == .unwritable)
        #expect(error?.description == "notes.outline: cannot save over \(path): it is a folder. Choose a file, not a folder.")
        #expect(try names() == ["notes.outline"])
    }

    @Test func aMissingFolderFailsClearly() throws {
        defer { removeFolder(folder) }
        let error = #expect(throws: StorageError.self) { try AtomicFile.write([1], to: folder + "/missing/notes.outline", file: "notes.outline") }
        #expect(error?.description == "notes.outline: cannot create a temporary file in \(folder)/missing: no such file or folder. Check the path.")
    }

    @Test(.enabled(if: !runningAsRoot, "root writes into read-only folders"))
    func aReadOnlyFolderFailsAndLeavesTheOriginalIntact() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1, 2], to: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        let error = #expect(throws: StorageError.self) { try AtomicFile.write([9], to: path, file: "notes.outline") }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        #expect(
            error?.description
                == "notes.outline: cannot create a temporary file in \(folder): permission denied. Check the permissions of the file and its folder, or save somewhere else."
        )
        #expect(try contents(path) == [1, 2])
        #expect(try names() == ["notes.outline"])
    }

    @Test func aFolderNamedLikeTheBackupIsLeftAlone() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1, 2], to: path)
        try FileManager.default.createDirectory(atPath: path + ".bak/inside", withIntermediateDirectories: true)
        let kept = try AtomicFile.write([9], to: path, keepBackup: true, file: "notes.outline")
        #expect(kept?.path == path + ".1.bak")
        #expect(try contents(path + ".1.bak") == [1, 2])
        #expect(FileManager.default.fileExists(atPath: path + ".bak/inside"))
    }

    @Test func aFailedBackupRemovesTheTemporaryFileAndKeepsTheOriginal() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1, 2], to: path)
        // Every backup name is taken: the save fails before the rename.
        for number in 0 ..< KeptBackup.maximumCount {
            _ = FileManager.default.createFile(atPath: KeptBackup.name(of: path, number: number), contents: Data([0]))
        }
        let error = #expect(throws: StorageError.self) { try AtomicFile.write([9], to: path, keepBackup: true, file: "notes.outline") }
        #expect(
            error?.description
                == "notes.outline: cannot keep a backup: \(path).bak to \(path).999.bak all exist. Remove the backups you no longer need and save again; nothing was written."
        )
        #expect(try contents(path) == [1, 2])
        #expect(try names().count == KeptBackup.maximumCount + 1)
        #expect(try AtomicFile.removeStaleTemporaries(beside: path).isEmpty)
    }

    @Test func staleTemporariesAreRemovedAndNothingElse() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1], to: path)
        let stale = [".notes.outline.outline-tmp-Ab3dE9", ".notes.outline.outline-tmp-000000"]
        let kept = [".other.outline.outline-tmp-Ab3dE9", ".notes.outline.outline-tmp-short", "notes.outline.outline-tmp-Ab3dE9"]
        for name in stale + kept { #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data([0]))) }
        // Unlocked and holding bytes: left by a dead save, however recent.
        let removed = try AtomicFile.removeStaleTemporaries(beside: path, olderThan: 60)
        #expect(removed.sorted() == stale.map { folder + "/" + $0 }.sorted())
        #expect(try names() == (kept + ["notes.outline"]).sorted())
    }

    @Test func aTemporaryFileBeingWrittenIsLeftAlone() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1], to: path)
        let writing = folder + "/.notes.outline.outline-tmp-Wr1t3s"
        let justCreated = folder + "/.notes.outline.outline-tmp-N3wOne"
        #expect(FileManager.default.createFile(atPath: writing, contents: Data([7, 7])))
        #expect(FileManager.default.createFile(atPath: justCreated, contents: Data()))
        // A save under way holds a shared lock on the folder, and one on its temporary file.
        let saving = open(folder, O_RDONLY | O_DIRECTORY)
        #expect(saving >= 0 && flock(saving, LOCK_SH) == 0)
        let fd = open(writing, O_RDONLY)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        #expect(try AtomicFile.removeStaleTemporaries(beside: path, olderThan: 60).isEmpty)
        // Empty and unlocked while a save is under way: maybe one not yet locked, until it is old.
        #expect(try AtomicFile.removeStaleTemporaries(beside: path, olderThan: 0) == [justCreated])
        close(fd)
        #expect(try AtomicFile.removeStaleTemporaries(beside: path, olderThan: 60) == [writing])
        // With no save under way, an empty one is a leftover however young.
        #expect(FileManager.default.createFile(atPath: justCreated, contents: Data()))
        close(saving)
        #expect(try AtomicFile.removeStaleTemporaries(beside: path, olderThan: 60) == [justCreated])
        #expect(try names() == ["notes.outline"])
    }

    @Test func twoPathsOfOneFileAreTheSameFile() throws {
        defer { removeFolder(folder) }
        let path = folder + "/notes.outline"
        try AtomicFile.write([1], to: path)
        try AtomicFile.write([1], to: folder + "/other.outline")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.outline", withDestinationPath: "notes.outline")
        #expect(AtomicFile.namesSameFile(path, folder + "/link.outline"))
        #expect(AtomicFile.namesSameFile(path, folder + "/./notes.outline"))
        #expect(!AtomicFile.namesSameFile(path, folder + "/other.outline"))
        #expect(!AtomicFile.namesSameFile(path, folder + "/missing.outline"))
    }
}

extension AtomicFileTests {
    /// Needs a tiny file system, e.g. `mount -t tmpfs -o size=64k tmpfs /mnt/tiny` and
    /// `OUTLINE_FULL_DISK_FOLDER=/mnt/tiny swift test --filter aFullDisk`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["OUTLINE_FULL_DISK_FOLDER"] != nil, "needs a tiny file system"))
    func aFullDiskFailsAndLeavesNoTemporaryFile() throws {
        let tiny = try #require(ProcessInfo.processInfo.environment["OUTLINE_FULL_DISK_FOLDER"])
        let path = tiny + "/notes.outline"
        try AtomicFile.write([1], to: path)
        let error = #expect(throws: StorageError.self) {
            try AtomicFile.write([UInt8](repeating: 7, count: 4 << 20), to: path, file: "notes.outline")
        }
        #expect(error?.code == .unwritable)
        #expect(error?.message.hasSuffix(": the disk is full") == true)
        #expect(error?.hint == "Free some space, or save to another disk.")
        #expect(try contents(path) == [1])
        #expect(try FileManager.default.contentsOfDirectory(atPath: tiny).filter { $0.contains("outline-tmp") }.isEmpty)
        try FileManager.default.removeItem(atPath: path)
    }
}
