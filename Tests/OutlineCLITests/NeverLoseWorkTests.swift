import Foundation
import OutlineKit
import OutlineStorage
import Testing

/// The ways work used to get lost, each fixed and kept fixed: converting a file onto itself,
/// interrupted commands leaving temporary files, output lost silently, backups replaced,
/// lossy migrations, text that rewrites the terminal.
@Suite struct NeverLoseWorkTests {
    static let formats: [DocumentFormat] = [.binary, .xml]

    // MARK: Converting onto the input

    static let sameFileOutputs: [(output: String, setup: String)] = [
        ("same.outline", "none"), ("./same.outline", "none"), ("link.outline", "hard link"), ("alias.outline", "symbolic link"),
    ]

    @Test(arguments: sameFileOutputs)
    func convertNeverReplacesItsInputWithALossyFormat(output: String, setup: String) throws {
        let box = try CLISandbox()
        try box.writeDocument("same.outline", version: "Outline 3", items: [("Groceries", ["Milk"])])
        if setup == "hard link" { try FileManager.default.linkItem(atPath: box.path("same.outline"), toPath: box.path(output)) }
        if setup == "symbolic link" { try FileManager.default.createSymbolicLink(atPath: box.path(output), withDestinationPath: "same.outline") }
        let before = try box.bytes("same.outline")
        for extra in [[], ["--force"]] {
            let result = try box.run(["convert", "same.outline", output, "--to", "text"] + extra)
            #expect(result.status == 1, "\(result)")
            let which =
                output == "same.outline" ? "the output is the input file" : "the output \(output) is the input file itself (the same file on disk)"
            #expect(
                result.stderr == "Error: same.outline: \(which); writing text over it would replace the document with a format "
                    + "that holds less. Write to another file; the input is left as it is.\n", "\(result)")
            #expect(try box.bytes("same.outline") == before)
        }
        // Binary and XML hold everything: in place, but only when asked.
        let refused = try box.run("convert", "same.outline", output, "--to", "xml")
        #expect(refused.status == 1 && refused.stderr.contains("pass --force to convert it in place"), "\(refused)")
        #expect(try box.bytes("same.outline") == before)
        let forced = try box.run("convert", "same.outline", output, "--to", "xml", "--force")
        #expect(forced.status == 0, "\(forced)")
        // The name written is the output's: a symbolic link's target, a hard link's own name.
        #expect(try box.run("info", output, "--json").jsonObject()["format"] as? String == "xml")
        #expect(try box.run("show", output).stdout == "1 Groceries\n  1.1 Milk\n")
        #expect(try box.temporaries().isEmpty)
    }

    // MARK: Signals

    /// A document big enough that writing it as XML takes a while (about 40 MB).
    static func writeBigDocument(_ box: CLISandbox, items: Int = 200_000) throws {
        var text = ""
        text.reserveCapacity(items * 40)
        for n in 0 ..< items {
            text += n % 100 == 0 ? "Section \(n / 100) with some words in it\n" : "\tItem \(n) with a few more words of text\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: box.path("big.txt")))
        let converted = try box.run("convert", "big.txt", "big.outline")
        try #require(converted.status == 0, "\(converted)")
    }

    /// Runs `arguments`, sends `signal` as soon as a temporary file of a save exists (or after
    /// `delay` seconds when nil), and returns the result.
    static func interrupt(_ box: CLISandbox, _ arguments: [String], with signal: Int32, whenSaving: Bool) throws -> (
        status: Int32, crashed: Bool, sawTemporary: Bool
    ) {
        let process = try box.prepare(arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exit = try process.start()
        var sawTemporary = false
        let start = Date()
        while process.isRunning {
            if whenSaving {
                if try !box.temporaries().isEmpty {
                    sawTemporary = true
                    break
                }
            } else if Date().timeIntervalSince(start) > 0.05 {
                break
            }
            usleep(200)
        }
        kill(process.processIdentifier, signal)
        exit.wait()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, sawTemporary)
    }

    static let signals: [(signal: Int32, status: Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)]

    @Test(arguments: signals)
    func aSignalDuringASaveRemovesItsTemporaryFileAndExitsWith128PlusTheSignal(signal: Int32, status: Int32) throws {
        let box = try CLISandbox()
        try Self.writeBigDocument(box)
        // Tries a few times: on a busy machine the command may finish before the temporary file is seen.
        var caught = false
        for _ in 0 ..< 5 where !caught {
            try? FileManager.default.removeItem(atPath: box.path("big.xml"))
            let run = try Self.interrupt(box, ["convert", "big.outline", "big.xml"], with: signal, whenSaving: true)
            guard run.sawTemporary else { continue }
            caught = true
            #expect(!run.crashed)
            #expect(run.status == status)
            let left = try box.temporaries()
            #expect(left.isEmpty, "the interrupted save left \(left)")
            #expect(!box.exists("big.xml"))
        }
        #expect(caught, "no run was caught while saving")
        // Before anything is written, the document is left as it was too.
        let before = try box.bytes("big.outline")
        let early = try Self.interrupt(box, ["add", "big.outline", "New"], with: signal, whenSaving: false)
        #expect(!early.crashed && (early.status == status || early.status == 0))
        if early.status == status { #expect(try box.bytes("big.outline") == before) }
        #expect(try box.temporaries().isEmpty)
    }

    @Test(arguments: signals.map(\.signal))
    func aSignalAfterTheSaveIsInPlaceLetsTheCommandFinish(signal: Int32) throws {
        let box = try CLISandbox()
        try Self.writeBigDocument(box)
        try Data("old".utf8).write(to: URL(fileURLWithPath: box.path("big.xml")))
        // The signal goes right after the temporary file was renamed into place: the document
        // is replaced, so the command must not report an interruption (128 + the signal).
        var caught = false
        for _ in 0 ..< 5 where !caught {
            try Data("old".utf8).write(to: URL(fileURLWithPath: box.path("big.xml")))
            let process = try box.prepare(["convert", "big.outline", "big.xml"])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let exit = try process.start()
            var sawTemporary = false
            while process.isRunning {
                let saving = try !box.temporaries().isEmpty
                if saving { sawTemporary = true }
                if sawTemporary && !saving { break }
                usleep(100)
            }
            kill(process.processIdentifier, signal)
            exit.wait()
            guard sawTemporary else { continue }
            caught = true
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0, "the save was in place, yet the command exited \(process.terminationStatus)")
            let written = try box.bytes("big.xml")
            #expect(written.count > 3, "big.xml was not replaced")
        }
        #expect(caught, "no run was caught while saving")
    }

    @Test func aLaterSaveToTheSameTargetRemovesTheLeftoversOfAKilledOne() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", [])])
        for name in [".out.xml.outline-tmp-AbC123", ".out.opml.outline-tmp-XyZ789"] {
            try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: box.path(name)))
        }
        #expect(try box.run("convert", "doc.outline", "out.xml").status == 0)
        #expect(try box.temporaries() == [".out.opml.outline-tmp-XyZ789"])
        #expect(try box.run("convert", "doc.outline", "out.opml").status == 0)
        #expect(try box.temporaries().isEmpty)
    }

    // MARK: Standard output

    /// Runs `arguments` with standard output going to `output`.
    static func run(_ box: CLISandbox, _ arguments: [String], output: Any) throws -> (status: Int32, stderr: String) {
        let process = try box.prepare(arguments)
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let exit = try process.start()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exit.wait()
        return (process.terminationStatus, text)
    }

    @Test(arguments: [
        ["show", "doc.outline"], ["show", "doc.outline", "--json"], ["find", "doc.outline", "TRUEPREDICATE"],
        ["convert", "doc.outline", "-", "--to", "opml"], ["info", "doc.outline"],
    ])
    func aFailedWriteToStandardOutputIsAnError(arguments: [String]) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", ["Milk"])])
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try Self.run(box, arguments, output: full)
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: cannot write to standard output (No space left on device); the output is incomplete. "
                + "Check where the output goes (a full disk, a closed file).\n")
    }

    @Test(arguments: [["add", "doc.outline", "New"], ["batch", "doc.outline", "--script", "one.txt"]])
    func aFailedWriteToStandardOutputAfterASaveSaysTheChangeIsMade(arguments: [String]) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: [("Groceries", ["Milk"])])
        try Data("add New\n".utf8).write(to: URL(fileURLWithPath: box.path("one.txt")))
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try Self.run(box, arguments, output: full)
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: cannot write to standard output (No space left on device); the output is incomplete, "
                + "but the change to the file was saved. Check where the output goes (a full disk, a closed file).\n")
        #expect(try box.run("show", "doc.outline").stdout.hasSuffix("2 New\n"))
    }

    @Test func aClosedPipeEndsTheOutputQuietly() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", items: (1 ... 2000).map { ("Item \($0)", []) })
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try Self.run(box, ["show", "doc.outline"], output: pipe)
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }

    // MARK: Backups

    @Test(arguments: formats)
    func editingAnOlderDocumentKeepsABakTheUserHad(format: DocumentFormat) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline", format: format, items: [("Groceries", [])])
        let original = try box.bytes("doc.outline")
        try Data("my own backup".utf8).write(to: URL(fileURLWithPath: box.path("doc.outline.bak")))
        let result = try box.run("add", "doc.outline", "Milk", "--under", "1")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "Note: doc.outline: migrated from Outline to Outline 3; the old version is kept as doc.outline.1.bak.\n")
        #expect(try box.bytes("doc.outline.bak") == Data("my own backup".utf8))
        #expect(try box.bytes("doc.outline.1.bak") == original)
    }

    @Test(arguments: formats)
    func aSecondMigrationKeepsTheBackupOfTheFirst(format: DocumentFormat) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline", format: format, items: [("Groceries", ["Milk"])])
        let v1 = try box.bytes("doc.outline")
        let first = try box.run("migrate", "doc.outline", "--to", "Outline 2")
        #expect(first.status == 0 && first.stdout.hasSuffix("the old version is kept as doc.outline.bak.\n"), "\(first)")
        let v2 = try box.bytes("doc.outline")
        let second = try box.run("migrate", "doc.outline")
        #expect(second.status == 0 && second.stdout.hasSuffix("the old version is kept as doc.outline.1.bak.\n"), "\(second)")
        #expect(try box.bytes("doc.outline.bak") == v1)
        #expect(try box.bytes("doc.outline.1.bak") == v2)
        let json = try box.run("migrate", "doc.outline", "--to", "Outline", "--json").jsonObject()  // back to v1: nothing to lose here
        #expect(json["backup"] as? String == "doc.outline.2.bak", "\(json)")
    }

    // MARK: Lossy migrations

    @Test(arguments: formats)
    func migratingToAnOlderVersionListsWhatWouldBeLostAndNeedsAllowLoss(format: DocumentFormat) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", format: format, items: [("Groceries", ["Milk", "Bread"])])
        for arguments in [
            ["edit", "doc.outline", "1.1", "--note", "Oat", "--done"], ["tag", "doc.outline", "1.2", "fresh"],
            ["collapse", "doc.outline", "1"],
        ] {
            #expect(try box.run(arguments).status == 0)
        }
        let before = try box.bytes("doc.outline")
        let refused = try box.run("migrate", "doc.outline", "--to", "Outline 2")
        #expect(refused.status == 1)
        #expect(
            refused.stderr == "Error: doc.outline: Outline 2: the version Outline 2 has no place for data the document holds, which "
                + "would be lost: Tag: 1 object; Item.collapsed: 1 value; Item.tags: 1 link. Pass --allow-loss to migrate all the same "
                + "(in place, the old version is kept as a backup), or leave the document at its version.\n", "\(refused)")
        #expect(try box.bytes("doc.outline") == before)
        #expect(!box.exists("doc.outline.bak"))
        let plan = try box.run("migrate", "doc.outline", "--to", "Outline", "--dry-run")
        #expect(plan.status == 0)
        #expect(
            plan.stdout.contains(
                """

                Lost (the target has no place for it; migrating needs --allow-loss):
                  Tag: 1 object
                  Item.collapsed: 1 value
                  Item.created: 3 values
                  Item.done: 1 value
                  Item.note: 1 value
                  Item.tags: 1 link

                """), "\(plan)")
        let allowed = try box.run("migrate", "doc.outline", "--to", "Outline 2", "--allow-loss")
        #expect(allowed.status == 0, "\(allowed)")
        #expect(try box.bytes("doc.outline.bak") == before)
        #expect(try box.run("show", "doc.outline").stdout == "1 Groceries\n  1.1 [x] Milk\n      Oat\n  1.2 Bread\n")
        // Nothing left that Outline 2 cannot hold: migrating onwards and back needs no permission.
        #expect(try box.run("migrate", "doc.outline").status == 0)
        let back = try box.run("migrate", "doc.outline", "--to", "Outline 2")
        #expect(back.status == 0, "\(back)")
    }

    // MARK: Control characters

    @Test(arguments: formats)
    func controlCharactersAreShownEscapedAndKeptExactInJSON(format: DocumentFormat) throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.outline", version: "Outline 3", format: format, items: [])
        let hostile = "Title\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let multiLine = "First line\nsecond line\twith a tab\u{202E}"
        #expect(try box.run("add", "doc.outline", hostile).status == 0)
        #expect(try box.run("add", "doc.outline", multiLine, "--note", "note\u{1B}[31m red\nsecond").status == 0)
        let shown = try box.run("show", "doc.outline")
        #expect(
            shown.stdout == """
                1 Title\\e]0;pwned\\u{7}\\e[2J
                2 First line\\nsecond line\\twith a tab\\u{202E}
                  note\\e[31m red
                  second

                """, "\(shown)")
        #expect(!shown.stdout.contains("\u{1B}"))
        let found = try box.run("find", "doc.outline", "text BEGINSWITH \"First\"")
        #expect(found.stdout == "2 First line\\nsecond line\\twith a tab\\u{202E}\n")
        let json = try box.run("show", "doc.outline", "--json").shownOutline()
        #expect(json.items.map(\.text) == [hostile, multiLine])
        #expect(json.items[1].note == "note\u{1B}[31m red\nsecond")
        let removed = try box.run("remove", "doc.outline", "1")
        #expect(removed.stdout == "Removed “Title\\e]0;pwned\\u{7}\\e[2J”.\n")
    }

    @Test(arguments: ["txt", "md"])
    func textWithControlCharactersIsReadIncludingTheToolsOwn(ext: String) throws {
        let box = try CLISandbox()
        try Data("Clear \u{1B}[2J screen\n\tchild \u{7}\n".utf8).write(to: URL(fileURLWithPath: box.path("in.\(ext)")))
        let shown = try box.run("show", "in.\(ext)")
        #expect(shown.status == 0, "\(shown)")
        if ext == "txt" { #expect(shown.stdout == "1 Clear \\e[2J screen\n  1.1 child \\u{7}\n") }
        // What the tool writes as text or Markdown from a title with an escape sequence reads back.
        #expect(try box.run("create", "c.outline").status == 0)
        #expect(try box.run("add", "c.outline", "A \u{1B}[2J B").status == 0)
        #expect(try box.run("convert", "c.outline", "c.\(ext)").status == 0)
        #expect(try box.run("show", "c.\(ext)").stdout == "1 A \\e[2J B\n")
        #expect(try box.run("convert", "c.\(ext)", "back.outline").status == 0)
        #expect(try box.run("show", "back.outline", "--json").stdout.contains("\"A \\u001b[2J B\""))
    }

    @Test func multiLineTitlesFromMarkdownKeepTheTreeOneLinePerItem() throws {
        let box = try CLISandbox()
        try Data("- First\n- Second  \n  continued\n  - Child\n".utf8).write(to: URL(fileURLWithPath: box.path("notes.md")))
        let shown = try box.run("show", "notes.md")
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout == "1 First\n2 Second  \\ncontinued\n  2.1 Child\n", "\(shown)")
        let json = try box.run("show", "notes.md", "--json").shownOutline()
        #expect(json.items[1].text == "Second  \ncontinued")
    }

    // MARK: Advice

    @Test func damageAdviceNamesTheNewestBackupThatExists() throws {
        let box = try CLISandbox()
        try box.copyFixture("Binary/truncated-body.outline", as: "doc.outline")
        let none = try box.run("show", "doc.outline")
        #expect(none.stderr.hasSuffix("The file is truncated; restore it from a backup if there is one.\n"), "\(none)")
        try box.copyFixture("Binary/small-outline.outline", as: "doc.outline.1.bak")
        let numbered = try box.run("show", "doc.outline")
        #expect(numbered.stderr.hasSuffix("The file is truncated; restore it from doc.outline.1.bak.\n"), "\(numbered)")
    }

    @Test func xmlDamageAdviceNamesTheBackupOnlyWhenOneExists() throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "doc.outline", "--format", "xml").status == 0)
        #expect(try box.run("add", "doc.outline", "Milk").status == 0)
        let whole = try Data(contentsOf: URL(fileURLWithPath: box.path("doc.outline")))
        try whole.prefix(whole.count - 40).write(to: URL(fileURLWithPath: box.path("doc.outline")))
        let none = try box.run("show", "doc.outline")
        #expect(none.status == 1)
        #expect(none.stderr.hasSuffix("The file is truncated; restore it from a backup if there is one.\n"), "\(none)")
        try whole.write(to: URL(fileURLWithPath: box.path("doc.outline.bak")))
        let named = try box.run("show", "doc.outline")
        #expect(named.stderr.hasSuffix("The file is truncated; restore it from doc.outline.bak.\n"), "\(named)")
    }
}
