import Foundation
import Testing

/// Running the tool as a user whom permissions stop. Root writes into read-only files and
/// folders, so when the tests run as root (as in CI containers) the tool is run as `nobody`
/// through `setpriv`; otherwise it runs as the tests' own user.
enum Unprivileged {
    /// The user and group id the tool runs as when the tests run as root.
    static let nobody: UInt32 = 65534

    /// What runs the tool unprivileged (empty: the tests' user already is), or why it cannot be.
    static let launcher: Result<[String], CLITestError> = {
        guard geteuid() == 0 else { return .success([]) }
        guard let setpriv = ["/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv"].first(where: FileManager.default.isExecutableFile(atPath:))
        else {
            return .failure(CLITestError("the tests run as root and setpriv (util-linux) is not installed to drop privileges"))
        }
        let launcher = [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"]
        // The built tool must be reachable by nobody (every folder above it searchable).
        do {
            let box = try CLISandbox()
            let result = try box.run(["--version"], via: launcher)
            guard result.status == 0 else {
                return .failure(
                    CLITestError("the user nobody cannot run the built tool (\(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))"))
            }
        } catch {
            return .failure(CLITestError("cannot run the tool as nobody: \(error)"))
        }
        return .success(launcher)
    }()

    static var isAvailable: Bool { (try? launcher.get()) != nil }

    /// Why the tests that need an unprivileged user are skipped, or nil when they run.
    static var unavailableReason: Comment? {
        if case .failure(let error) = launcher { return Comment(rawValue: error.description) }
        return nil
    }
}

extension CLISandbox {
    /// Runs `outline ARGUMENTS` as an unprivileged user; see ``Unprivileged``.
    func runUnprivileged(_ arguments: [String], environment: [String: String] = [:], wrappedIn wrapper: [String] = []) throws -> CLIResult {
        try run(arguments, environment: environment, via: try Unprivileged.launcher.get() + wrapper)
    }

    /// Gives the folder and everything in it to the user the tool runs as unprivileged.
    func handToUnprivilegedUser() throws {
        guard geteuid() == 0 else { return }
        let paths = [folder.path] + (FileManager.default.subpaths(atPath: folder.path) ?? []).map(path)
        for path in paths where lchown(path, Unprivileged.nobody, Unprivileged.nobody) != 0 {
            throw CLITestError("cannot give \(path) to nobody (errno \(errno))")
        }
    }

    /// Sets the permission bits of `name` (the folder itself for ".").
    func setMode(_ mode: Int, of name: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: name == "." ? folder.path : path(name))
    }
}

/// A shell that lowers the file size limit to `blocks` before running the tool (the limit's
/// unit is the shell's: 512 or 1,024 bytes).
func fileSizeLimited(blocks: Int) -> [String] {
    ["/bin/sh", "-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\""]
}
