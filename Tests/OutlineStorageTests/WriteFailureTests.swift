import Foundation
import OutlineStorage
import Testing

/// Saves that the system refuses (a file size limit, permissions) fail with a message saying
/// what, where and what to do, leave the original intact and leave no temporary file.
///
/// Each runs in a child process (an exit test) that lowers its own limits or, when the tests
/// run as root (whom permissions do not stop), first becomes the unprivileged user `nobody`.
@Suite struct WriteFailureTests {
    enum Failure: String, Codable, Sendable, CaseIterable {
        case fileSizeLimit, readOnlyFolder, readOnlyFile, closedFolder
    }

    @Test(arguments: Failure.allCases)
    func aRefusedSaveSaysWhyAndLeavesTheOriginal(failure: Failure) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [failure] in
            exit(Self.check(failure) ? EXIT_SUCCESS : EXIT_FAILURE)
        }
        // The child writes a line per problem (besides what the test library itself writes).
        if let result {
            let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(!errors.contains("\(failure.rawValue): "), "\(errors)")
        }
    }

    /// In the child process: sets up `failure`, saves, and reports on standard error what was
    /// not as expected. Returns whether everything was.
    static func check(_ failure: Failure) -> Bool {
        var problems: [String] = []
        do {
            let folder = try makeTemporaryFolder()
            let path = folder + "/notes.outline"
            try AtomicFile.write([1, 2, 3], to: path)
            let expected: String
            switch failure {
            case .fileSizeLimit:
                signal(SIGXFSZ, SIG_IGN)
                var limit = rlimit()
                getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
                limit.rlim_cur = 4096
                guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { throw StorageError(.unwritable, "setrlimit failed") }
                expected =
                    "the file would be larger than the file system or the file size limit (ulimit -f) allows. Raise the file size limit, or save to another disk."
            case .readOnlyFolder:
                chmod(folder, 0o555)
                expected =
                    "cannot create a temporary file in \(folder): permission denied. Check the permissions of the file and its folder, or save somewhere else."
            case .readOnlyFile:
                chmod(path, 0o444)
                expected = "cannot save over \(path): permission denied. Check the permissions of the file and its folder, or save somewhere else."
            case .closedFolder:
                chmod(folder, 0o000)
                expected = "cannot inspect \(path): permission denied. Check the permissions of the file and its folder, or save somewhere else."
            }
            if failure != .fileSizeLimit { try becomeUnprivileged(owning: [folder, path]) }
            do {
                try AtomicFile.write([UInt8](repeating: 7, count: 16 << 10), to: path, file: "notes.outline")
                problems.append("the save succeeded")
            } catch let error as StorageError {
                if error.code != .unwritable { problems.append("code \(error.code)") }
                if failure == .fileSizeLimit {
                    if !(error.description.hasPrefix("notes.outline: cannot write the temporary file \(folder)/.notes.outline.outline-tmp-")
                        && error.description.hasSuffix(expected))
                    {
                        problems.append("message: \(error.description)")
                    }
                } else if error.description != "notes.outline: \(expected)" {
                    problems.append("message: \(error.description)")
                }
            }
            chmod(folder, 0o755)
            if let bytes = FileManager.default.contents(atPath: path), [UInt8](bytes) != [1, 2, 3] { problems.append("the original changed") }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? ["(unlistable)"]
            if names != ["notes.outline"] { problems.append("the folder holds \(names)") }
            removeFolder(folder)
        } catch {
            problems.append("setting up: \(error)")
        }
        for problem in problems { FileHandle.standardError.write(Data("\(failure): \(problem)\n".utf8)) }
        return problems.isEmpty
    }

    /// Gives `paths` to `nobody` and becomes `nobody` when running as root; otherwise does nothing.
    static func becomeUnprivileged(owning paths: [String]) throws {
        guard geteuid() == 0 else { return }
        let nobody: UInt32 = 65534
        for path in paths { chown(path, nobody, nobody) }
        guard setgroups(0, nil) == 0, setgid(nobody) == 0, setuid(nobody) == 0 else {
            throw StorageError(.unwritable, "cannot become the user nobody (errno \(errno))")
        }
    }
}
