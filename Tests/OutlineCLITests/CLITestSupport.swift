import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTestSupport
import Testing

/// What one run of the `outline` binary did.
struct CLIResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Whether the process ended by a signal (a crash) instead of exiting.
    var crashed: Bool

    var description: String { "exit \(status)\(crashed ? " (signal)" : "")\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs the built `outline` binary in a temporary folder of its own.
final class CLISandbox: Sendable {
    let folder: URL

    init() throws {
        folder = try TemporaryFolder.make("outline-cli")
    }

    deinit {
        TemporaryFolder.remove(folder)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Copies a file of `Fixtures/` into the folder.
    @discardableResult
    func copyFixture(_ relative: String, as name: String) throws -> String {
        let source = CLI.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative)
        try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// Runs `outline ARGUMENTS` with the folder as working directory.
    @discardableResult
    func run(_ arguments: String...) throws -> CLIResult {
        try run(arguments)
    }

    /// Runs `outline ARGUMENTS` with the folder as working directory.
    ///
    /// - Parameters:
    ///   - environment: variables added to the test's own environment.
    ///   - launcher: a command that runs the tool, given its path and arguments after its own
    ///     (`setpriv ... --`, a shell setting limits); none runs it directly.
    ///   - standardInput: bytes fed to the tool through a pipe (as `cat file | outline ...`);
    ///     none: standard input is empty.
    func run(
        _ arguments: [String], environment: [String: String] = [:], via launcher: [String] = [],
        standardInput: Data? = nil
    ) throws -> CLIResult {
        try capture(try prepare(arguments, environment: environment, via: launcher), standardInput: standardInput)
    }

    /// Runs `outline ARGUMENTS` like ``run(_:)-(String...)``, off the caller's actor: a test on the
    /// main actor would otherwise hold it (and the main-actor work of every other test) while
    /// the tool runs.
    @concurrent
    func runElsewhere(_ arguments: String...) async throws -> CLIResult {
        try run(arguments)
    }

    /// Runs `executable ARGUMENTS` (a wrapper such as `prlimit` around the tool) like ``run(_:environment:via:)``.
    func run(executable: String, _ arguments: [String]) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        // Help text wraps at the terminal width; pin it.
        process.environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "80"]) { $1 }
        return try capture(process)
    }

    /// Runs `process` to its end with its output captured.
    private func capture(_ process: Process, standardInput: Data? = nil) throws -> CLIResult {
        let out = folder.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let err = folder.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        let input = standardInput.map { _ in Pipe() }
        process.standardInput = input ?? FileHandle.nullDevice
        let exit = try process.start()
        if let input, let standardInput {
            // A tool that exits before reading all of it would end the whole test process
            // with SIGPIPE; ignored, the write fails with EPIPE instead (and is not checked).
            CLI.ignoreBrokenPipes()
            // Written from another thread: a pipe holds only so much before the tool reads it.
            let writer = input.fileHandleForWriting
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? writer.write(contentsOf: standardInput)
                try? writer.close()
                done.signal()
            }
            exit.wait()
            done.wait()
        } else {
            exit.wait()
        }
        try outHandle.close()
        try errHandle.close()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self),
            crashed: process.terminationReason == .uncaughtSignal)
    }

    /// A process that runs `outline ARGUMENTS` in the folder once started; see ``run(_:environment:via:)``.
    func prepare(_ arguments: [String], environment: [String: String] = [:], via launcher: [String] = []) throws -> Process {
        let process = Process()
        let binary = try CLI.binary()
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = folder
        // Help text wraps at the terminal width; pin it.
        process.environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "80"]) { $1 }.merging(environment) { $1 }
        return process
    }

    /// The names in the folder that are temporary files of a save (`.NAME.outline-tmp-XXXXXX`).
    func temporaries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".outline-tmp-") }.sorted()
    }

    /// Writes an outline at schema version `version` (`"Outline"`, `"Outline 2"`, `"Outline 3"`)
    /// holding `items` (text, children) under the root, in `format`.
    func writeDocument(
        _ name: String, version: String, format: DocumentFormat = .binary,
        items: [(String, [String])] = []
    ) throws {
        let schema = try #require(try OutlineSchemas.version(named: version))
        let store = PersistentStore(schema: schema, path: path(name), format: format)
        let document = try OutlineDocument(context: store.context)
        for (text, children) in items {
            let item = try document.insertItem(text)
            for child in children { try document.insertItem(child, under: item) }
        }
        try store.save()
    }
}

extension CLISandbox {
    /// `Fixtures/Models/Notebook.xcdatamodeld`: `Note` with `title`, `pages` (v1 also `body`);
    /// v1 -> v2 makes `title` required, v2 -> v3 makes `pages` a String (blocked).
    static var notebookModel: String { CLI.packageRoot.appendingPathComponent("Fixtures/Models/Notebook.xcdatamodeld").path }

    /// Writes a document of the Notebook model at `version` with one `Note` per entry.
    func writeNotebook(
        _ name: String, version: String, format: DocumentFormat = .binary,
        notes: [(title: String?, pages: Int?)]
    ) throws {
        let model = try ModelReader.read(at: URL(fileURLWithPath: Self.notebookModel))
        let schema = try #require(model.version(named: version))
        let store = PersistentStore(schema: schema, path: path(name), format: format)
        for note in notes {
            let object = try store.context.insert("Note")
            try store.context.setValue(note.title.map(Value.string), forKey: "title", of: object)
            let pagesAreText = schema.info(named: "Note")?.attributes.first { $0.name == "pages" }?.type == .string
            try store.context.setValue(note.pages.map { pagesAreText ? .string(String($0)) : .integer(Int64($0)) }, forKey: "pages", of: object)
        }
        // Unchecked: documents whose data breaks a later version's rules are the point.
        try Data(try store.encoded()).write(to: URL(fileURLWithPath: path(name)))
    }
}

/// Locating the binary and the package.
enum CLI {
    /// Makes a write to a pipe whose reader has gone fail with EPIPE instead of ending the
    /// test process with SIGPIPE; once, before the first such write.
    static func ignoreBrokenPipes() { _ = ignoringBrokenPipes }

    private static let ignoringBrokenPipes: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// The package's root folder.
    static let packageRoot = PackagePaths.root

    /// The built `outline`: beside the test bundle (the products folder is the parent of the
    /// `.xctest` bundle), else in `.build/debug`.
    static func binary() throws -> URL {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["OUTLINE_BINARY"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("outline"))
        }
        if let executable = Bundle.main.executableURL {
            var folder = executable.deletingLastPathComponent()
            for _ in 0 ..< 4 {
                candidates.append(folder.appendingPathComponent("outline"))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/outline"))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw CLITestError("the outline binary was not found (looked at \(candidates.map(\.path).joined(separator: ", "))); run `swift build` first")
    }
}

struct CLITestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The tree `outline show --json` prints, for comparing with an expected one.
struct ShownOutline: Decodable, Equatable, Sendable {
    var schemaVersion: String
    var items: [ShownItem]
}

struct ShownItem: Decodable, Equatable, Sendable, CustomStringConvertible {
    var text: String?
    var note: String?
    var done: Bool
    var collapsed: Bool
    var tags: [String]
    var children: [ShownItem]
    /// How many children the output left out (`--depth`): `childCount` when `children` is absent.
    var hiddenChildren: Int

    init(
        _ text: String, note: String? = nil, done: Bool = false, collapsed: Bool = false, tags: [String] = [],
        hiddenChildren: Int = 0, _ children: [ShownItem] = []
    ) {
        self.text = text
        self.note = note
        self.done = done
        self.collapsed = collapsed
        self.tags = tags
        self.hiddenChildren = hiddenChildren
        self.children = children
    }

    private enum CodingKeys: String, CodingKey { case text, note, done, collapsed, tags, childCount, children }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        done = try container.decode(Bool.self, forKey: .done)
        collapsed = try container.decode(Bool.self, forKey: .collapsed)
        tags = try container.decode([String].self, forKey: .tags)
        let count = try container.decode(Int.self, forKey: .childCount)
        let shown = try container.decodeIfPresent([ShownItem].self, forKey: .children)
        children = shown ?? []
        hiddenChildren = shown == nil ? count : 0
        if let shown, shown.count != count {
            throw CLITestError("childCount \(count) but \(shown.count) children for \(text ?? "nil")")
        }
    }

    var description: String {
        "\(text ?? "nil")\(done ? " [x]" : "")\(note.map { " (\($0))" } ?? "")" + (tags.isEmpty ? "" : " \(tags)")
            + (hiddenChildren > 0 ? " [+\(hiddenChildren)]" : "") + (children.isEmpty ? "" : " \(children)")
    }
}

extension CLIResult {
    /// Decodes stdout as the JSON of `outline show --json`.
    func shownOutline() throws -> ShownOutline {
        try JSONDecoder().decode(ShownOutline.self, from: Data(stdout.utf8))
    }

    /// Decodes stdout as a JSON object.
    func jsonObject() throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        guard let object = value as? [String: Any] else { throw CLITestError("stdout is not a JSON object: \(stdout)") }
        return object
    }
}
