import Foundation
import OutlineStorage
import Testing

/// The editing lock: exclusive between open file descriptions (so between processes), released
/// on release or deinit, and following the document when a save renames a new file into place.
///
/// A lock a test takes for itself may wait: while other tests start child processes, a child
/// between fork and exec holds a copy of a descriptor just closed here, and with it the lock.
@Suite struct DocumentLockTests {
    let folder: String
    init() throws { folder = try makeTemporaryFolder() }

    func document() throws -> String {
        let path = folder + "/notes.outline"
        try AtomicFile.write([1, 2, 3], to: path)
        return path
    }

    @Test func aSecondLockWaitsAndThenGivesUpWithAClearError() throws {
        defer { removeFolder(folder) }
        let path = try document()
        let first = try DocumentLock.acquire(path, timeout: 10, file: "notes.outline")
        #expect(first.isHeld)
        let start = Date()
        let error = #expect(throws: StorageError.self) { try DocumentLock.acquire(path, timeout: 0.3, file: "notes.outline") }
        #expect(Date().timeIntervalSince(start) >= 0.3)
        #expect(error?.code == .conflict)
        #expect(
            error?.description
                == "notes.outline: another process is editing the document (waited 0.3 seconds for it to finish). Try again once the other command is done; nothing was written."
        )
        first.release()
        #expect(!first.isHeld)
        let second = try DocumentLock.acquire(path, timeout: 10)
        #expect(second.isHeld)
    }

    @Test func aLockIsReleasedWithItsOwner() throws {
        defer { removeFolder(folder) }
        let path = try document()
        do {
            let held = try DocumentLock.acquire(path, timeout: 10)
            #expect(held.isHeld)
        }
        #expect(try DocumentLock.acquire(path, timeout: 10).isHeld)
    }

    @Test func aWaiterLocksTheFileThatASaveRenamedIntoPlace() throws {
        defer { removeFolder(folder) }
        let path = try document()
        let holder = try DocumentLock.acquire(path, timeout: 10)
        // @unchecked Sendable: the thread writes `lock` and `error` before it signals `done`;
        // the test reads them only after waiting for `done`.
        final class Waiter: @unchecked Sendable {
            var lock: DocumentLock?
            var error: (any Error)?
            let done = DispatchSemaphore(value: 0)
        }
        let waiter = Waiter()
        Thread.detachNewThread {
            do { waiter.lock = try DocumentLock.acquire(path, timeout: 10) } catch { waiter.error = error }
            waiter.done.signal()
        }
        Thread.sleep(forTimeInterval: 0.1)
        // The holder saves (a new file replaces the locked one), then lets go.
        try AtomicFile.write([4, 5], to: path)
        holder.release()
        waiter.done.wait()
        #expect(waiter.error == nil)
        #expect(waiter.lock?.isHeld == true)
        // The waiter holds the file now at the path, not the replaced one: nobody else gets it.
        let error = #expect(throws: StorageError.self) { try DocumentLock.acquire(path, timeout: 0) }
        #expect(error?.code == .conflict)
    }

    @Test func aLockFollowsASymbolicLinkToItsTarget() throws {
        defer { removeFolder(folder) }
        let path = try document()
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.outline", withDestinationPath: "notes.outline")
        let held = try DocumentLock.acquire(folder + "/link.outline", timeout: 10)
        #expect(throws: StorageError.self) { try DocumentLock.acquire(path, timeout: 0) }
        withExtendedLifetime(held) {}
    }

    @Test func lockingAMissingFileOrAFolderFailsLikeOpeningIt() throws {
        defer { removeFolder(folder) }
        let missing = #expect(throws: StorageError.self) { try DocumentLock.acquire(folder + "/none.outline", file: "none.outline") }
        #expect(missing?.description == "none.outline: cannot open: no such file or folder. Check the path.")
        let directory = #expect(throws: StorageError.self) { try DocumentLock.acquire(folder, file: "folder") }
        #expect(directory?.description == "folder: cannot open: it is a folder. Choose a file, not a folder.")
    }
}
