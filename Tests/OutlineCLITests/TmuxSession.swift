import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `outline` binary running full screen inside a detached tmux session on a private
/// server (`tmux -L`), so tests type keys (`send-keys`) and read the screen (`capture-pane`)
/// the way a person would, without a terminal of their own.
final class TmuxSession {
    /// Whether tmux is installed (`.ci/setup` installs it); tests skip without it.
    static let isAvailable: Bool = executable() != nil

    private static func executable() -> String? {
        for folder in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] where FileManager.default.isExecutableFile(atPath: folder + "/tmux") {
            return folder + "/tmux"
        }
        return nil
    }

    private let tmux: String
    private let socket = "outline-test-\(UUID().uuidString.prefix(8))"
    private let sandbox: CLISandbox

    /// Starts `outline ARGUMENTS` in the sandbox's folder on a `width` × `height` screen.
    ///
    /// - Parameter launcher: a command that runs the tool, given its path and arguments after
    ///   its own (`setpriv ... --`, see ``Unprivileged``).
    init(
        _ sandbox: CLISandbox, _ arguments: [String], width: Int = 80, height: Int = 20,
        environment: [String: String] = [:], launcher: [String] = []
    ) throws {
        self.sandbox = sandbox
        tmux = try #require(Self.executable(), "tmux is not installed")
        let binary = try CLI.binary()
        var variables = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        variables.merge(environment) { $1 }
        let assignments = variables.map { "\($0.key)=\(Self.quoted($0.value))" }.sorted().joined(separator: " ")
        // After the editor ends, the pane stays (for capture) with the exit status on screen.
        let prefix = launcher.map(Self.quoted).joined(separator: " ")
        let command =
            "env \(assignments) \(prefix) \(Self.quoted(binary.path)) \(arguments.map(Self.quoted).joined(separator: " ")); echo \"[exit $?]\"; sleep 60"
        try spawn([
            "-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", String(height),
            "-c", sandbox.folder.path, command,
        ])
    }

    /// Starts the tmux server with no signals blocked or ignored: the test process blocks some
    /// on its threads, and a server (and editor) inheriting that mask would never see SIGHUP.
    private func spawn(_ arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = [tmux, "-L", socket] + arguments
        var cStrings = argv.map { strdup($0) }
        defer { for pointer in cStrings { free(pointer) } }
        cStrings.append(nil)
        var pid: pid_t = 0
        let status = posix_spawn(&pid, tmux, nil, &attributes, cStrings, environ)
        try #require(status == 0, "tmux did not start (posix_spawn: \(status))")
        var exit: Int32 = 0
        waitpid(pid, &exit, 0)
    }

    deinit {
        _ = try? run(["kill-server"])
    }

    /// Types keys: tmux key names (`Enter`, `Escape`, `Tab`, `BTab`, `C-s`, `Up`) or literal text.
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", "0"] + keys)
    }

    /// Types `text` literally (no key names).
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "0", "-l", text])
    }

    /// Pastes `text` as a terminal does: between the bracketed paste markers when the
    /// program in the pane turned bracketed paste mode on, as plain input otherwise.
    func paste(_ text: String) throws {
        try run(["set-buffer", "-b", "pasted", text])
        try run(["paste-buffer", "-p", "-b", "pasted", "-t", "0"])
    }

    /// Resizes the window to `width` × `height`, as when a terminal window is resized.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "0", "-x", String(width), "-y", String(height)])
    }

    /// The screen now, one line per row.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", "0"])
    }

    /// Polls the screen until `condition` holds (up to `timeout`), returning it; records an
    /// issue with the last screen when it never does.
    @discardableResult
    func waitFor(
        _ what: String, timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var last = ""
        while clock.now < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for \(what); the screen:\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("“\(text)”", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Ends the tmux server: the editor's terminal closes under it (SIGHUP), as when a
    /// terminal window is closed.
    func hangUp() throws {
        try run(["kill-server"])
    }

    /// Sends `signal` to the program in the pane alone (the pane's shell's child), leaving the
    /// pane open so that what the program prints as it ends stays on the screen.
    func signalProgram(_ signal: Int32) throws {
        let shown = try run(["display-message", "-p", "-t", "0", "#{pane_pid}"])
        let shell = try #require(Int32(shown.trimmingCharacters(in: .whitespacesAndNewlines)), "no pane pid in “\(shown)”")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let program = try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "the pane runs no program")
        try #require(kill(program, signal) == 0, "kill: \(errno)")
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = ["-L", socket] + arguments
        process.standardError = FileHandle.nullDevice
        // Only capture-pane's and display-message's output is read: a pipe given to new-session would be inherited
        // by the tmux server it starts, and never reach its end.
        guard arguments.contains("capture-pane") || arguments.contains("display-message") else {
            process.standardOutput = FileHandle.nullDevice
            try process.runToEnd()
            return ""
        }
        let output = Pipe()
        process.standardOutput = output
        let exit = try process.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        exit.wait()
        return String(decoding: data, as: UTF8.self)
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
