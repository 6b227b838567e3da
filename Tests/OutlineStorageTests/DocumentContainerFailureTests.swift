import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine
@testable import OutlineStorage

/// A background save that the system refuses leaves the file, the folder and the unsaved
/// changes as they were, says why, and the next save succeeds.
///
/// Each runs in a child process (an exit test) that lowers its file size limit (the write then
/// fails half-way through the temporary file) or becomes `nobody` in a read-only folder.
@Suite(.timeLimit(.minutes(5))) struct DocumentContainerFailureTests {
    enum Failure: String, Codable, Sendable, CaseIterable {
        case halfWayThroughTheWrite, readOnlyFolder
    }

    @Test(arguments: Failure.allCases)
    func aFailedSaveLeavesFileAndChangesAsTheyWere(failure: Failure) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [failure] in
            exit(await Self.check(failure) ? EXIT_SUCCESS : EXIT_FAILURE)
        }
        if let result {
            let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(!errors.contains("\(failure.rawValue): "), "\(errors)")
        }
    }

    /// In the child process: sets up `failure`, edits, saves, and reports on standard error
    /// what was not as expected.
    @MainActor static func check(_ failure: Failure) async -> Bool {
        var problems: [String] = []
        do {
            let folder = try makeTemporaryFolder()
            let path = try StackFixtures.document(2_000, in: folder)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let container = try await DocumentContainer.open(path)
            try StackFixtures.insert("unsaved", under: StackFixtures.root(of: container.context), in: container.context)
            let expected: String
            var limit = rlimit()
            switch failure {
            case .halfWayThroughTheWrite:
                signal(SIGXFSZ, SIG_IGN)
                getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
                var lowered = limit
                lowered.rlim_cur = 4096
                guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &lowered) == 0 else { throw StorageError(.unwritable, "setrlimit failed") }
                expected =
                    "the file would be larger than the file system or the file size limit (ulimit -f) allows. Raise the file size limit, or save to another disk."
            case .readOnlyFolder:
                try WriteFailureTests.becomeUnprivileged(owning: [folder, path])
                chmod(folder, 0o555)
                expected =
                    "\(path): cannot create a temporary file in \(folder): permission denied. Check the permissions of the file and its folder, or save somewhere else."
            }
            do {
                try await container.save()
                problems.append("the save succeeded")
            } catch let error as StorageError {
                if error.code != .unwritable { problems.append("code \(error.code)") }
                if failure == .readOnlyFolder ? error.description != expected : !error.description.hasSuffix(expected) {
                    problems.append("message: \(error.description)")
                }
                if container.saveState != .failed(error) { problems.append("state \(container.saveState)") }
            }
            if !container.hasChanges || container.context.insertedObjects.count != 1 { problems.append("the changes were lost") }
            if (try? Data(contentsOf: URL(fileURLWithPath: path))) != before { problems.append("the file changed") }
            if StackFixtures.names(in: folder) != ["doc.outline"] { problems.append("the folder holds \(StackFixtures.names(in: folder))") }
            // Once the cause is gone, the next save writes everything.
            switch failure {
            case .halfWayThroughTheWrite: setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
            case .readOnlyFolder: chmod(folder, 0o755)
            }
            try await container.save()
            if container.hasChanges || container.saveState != .saved { problems.append("still unsaved after the retry") }
            if try !StackFixtures.texts(at: path).contains("unsaved") { problems.append("the retry did not write the edit") }
            try await container.close()
            removeFolder(folder)
        } catch {
            problems.append("setting up: \(error)")
        }
        for problem in problems { FileHandle.standardError.write(Data("\(failure): \(problem)\n".utf8)) }
        return problems.isEmpty
    }
}
