import Foundation
import OutlineStorage
import Testing

/// Several processes editing one document: they take turns (the editing lock), so no update is
/// lost, and a writer that waits too long says so; readers never wait.
@Suite struct ConcurrentEditingTests {
    /// A document of `items` top-level items `base 1` ... in `format`.
    static func sandbox(format: DocumentFormat = .binary, items: Int = 300) throws -> CLISandbox {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", format: format, items: (1 ... items).map { ("base \($0)", []) })
        try box.writeDocument("old.outline", version: "Outline 2", format: format, items: [("Old", [])])
        return box
    }

    /// Starts every command at once and waits for them all.
    static func runTogether(_ box: CLISandbox, _ commands: [[String]]) throws -> [CLIResult] {
        var running: [(Process, URL)] = []
        for (index, arguments) in commands.enumerated() {
            let process = try box.prepare(arguments)
            let errors = box.folder.appendingPathComponent(".stderr-\(index)")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            running.append((process, errors))
        }
        let exits = try running.map { process, _ in try process.start() }
        return try zip(running, exits).map { child, exit in
            let (process, errors) = child
            exit.wait()
            defer { try? FileManager.default.removeItem(at: errors) }
            return CLIResult(
                status: process.terminationStatus, stdout: "",
                stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self),
                crashed: process.terminationReason == .uncaughtSignal)
        }
    }

    @Test(arguments: [DocumentFormat.binary, .xml])
    func simultaneousEditsAreAllKept(format: DocumentFormat) throws {
        let box = try Self.sandbox(format: format)
        let writers = 8
        let results = try Self.runTogether(
            box,
            (1 ... writers).map { ["add", "doc.outline", "writer \($0)"] }
                + [["edit", "doc.outline", "1", "--text", "edited"], ["remove", "doc.outline", "2"]])
        for result in results { #expect(result.status == 0 && !result.crashed, "\(result)") }
        let shown = try box.run("show", "doc.outline", "--json").shownOutline()
        let texts = shown.items.compactMap(\.text)
        #expect(texts.count == 300 + writers - 1)
        #expect(texts.first == "edited" && !texts.contains("base 2"), "\(texts.prefix(3))")
        #expect(Set(texts.suffix(writers)) == Set((1 ... writers).map { "writer \($0)" }), "\(texts.suffix(writers))")
        #expect(try box.temporaries() == [])
    }

    static let editingCommands: [[String]] = [
        ["add", "doc.outline", "X"], ["edit", "doc.outline", "1", "--done"], ["remove", "doc.outline", "1"],
        ["move", "doc.outline", "1", "--down"], ["migrate", "old.outline"], ["convert", "doc.outline", "doc.outline", "--to", "xml", "--force"],
        ["create", "doc.outline", "--force"],
    ]

    @Test(arguments: editingCommands)
    func aWriterGivesUpClearlyWhenAnotherHoldsTheDocumentTooLong(arguments: [String]) throws {
        let box = try Self.sandbox(items: 3)
        let name = arguments[1]
        let before = try box.bytes(name)
        // Waits if need be: a child another test is starting may briefly hold the lock the
        // sandbox's own save took (a copy of its descriptor, until the child execs).
        let lock = try DocumentLock.acquire(box.path(name), timeout: 10)
        let start = ContinuousClock.now
        let refused = try box.run(arguments, environment: ["OUTLINE_LOCK_TIMEOUT": "0.5"])
        #expect(ContinuousClock.now - start >= .milliseconds(500))
        #expect(refused.status == 1 && refused.stdout == "", "\(refused)")
        #expect(
            refused.stderr
                == "Error: \(name): another process is editing the document (waited 0.5 seconds for it to finish). Try again once the other command is done; nothing was written.\n"
        )
        #expect(try box.bytes(name) == before)
        withExtendedLifetime(lock) {}
    }

    @Test func aWriterWaitsForTheOtherToFinishAndReadersDoNotWait() throws {
        let box = try Self.sandbox(items: 3)
        let lock = try DocumentLock.acquire(box.path("doc.outline"), timeout: 10)
        // Readers take no lock: with the default wait of 30 seconds, a lock would show.
        for arguments in [
            ["show", "doc.outline"], ["find", "doc.outline", "done == NO"], ["info", "doc.outline"],
            ["validate", "doc.outline"], ["convert", "doc.outline", "copy.xml"], ["migrate", "doc.outline", "--dry-run"],
        ] {
            let start = ContinuousClock.now
            let result = try box.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(ContinuousClock.now - start < .seconds(10), "\(arguments) waited for the lock")
        }
        let waiting = try box.prepare(["add", "doc.outline", "after the wait"])
        waiting.standardOutput = FileHandle.nullDevice
        waiting.standardError = FileHandle.nullDevice
        let exit = try waiting.start()
        Thread.sleep(forTimeInterval: 0.7)
        #expect(waiting.isRunning, "the writer did not wait for the lock")
        lock.release()
        exit.wait()
        #expect(waiting.terminationStatus == 0)
        let texts = try box.run("show", "doc.outline", "--json").shownOutline().items.compactMap(\.text)
        #expect(texts == ["base 1", "base 2", "base 3", "after the wait"])
    }
}
