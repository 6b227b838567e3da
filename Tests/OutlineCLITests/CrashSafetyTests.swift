import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import Testing

/// A save killed at any moment (SIGKILL: no cleanup runs) leaves the document as it was or as
/// the command would have written it, byte for byte, and the next command leaves no temporary
/// file behind.
///
/// Each scenario first runs its command once undisturbed to learn the new bytes and how long
/// the run and its write take, then kills the command again and again: half of the kills at
/// delays spread evenly over the whole run, half at delays spread over the write, counted from
/// the moment its temporary file appears, so that the kills land before, during and after the
/// rename. `OUTLINE_KILLS` sets the number of kills over all scenarios (default 260; for
/// example `OUTLINE_KILLS=2000 swift test --filter CrashSafety`), `OUTLINE_KILL_ITEMS` the size
/// of the document (default 1,000 items; the tool's start-up, not the document, is most of a
/// debug run's time).
@Suite struct CrashSafetyTests {
    static let kills = ProcessInfo.processInfo.environment["OUTLINE_KILLS"].flatMap(Int.init) ?? 260
    static let items = ProcessInfo.processInfo.environment["OUTLINE_KILL_ITEMS"].flatMap(Int.init) ?? 1_000

    struct Scenario: CustomTestStringConvertible, Sendable {
        /// `add` (an edit) on a current document, or `migrate` in place of an `Outline` (v1) one.
        var command: String
        var format: DocumentFormat
        var testDescription: String { "\(command) (\(format.rawValue))" }

        var version: String { command == "migrate" ? "Outline" : "Outline 3" }
        var arguments: [String] { command == "migrate" ? ["migrate", "doc.outline"] : ["add", "doc.outline", "The new item", "--under", "2"] }
    }

    static let scenarios = [
        Scenario(command: "add", format: .binary), Scenario(command: "add", format: .xml),
        Scenario(command: "migrate", format: .binary), Scenario(command: "migrate", format: .xml),
    ]

    /// What the kills of one scenario found.
    struct Tally: CustomStringConvertible {
        var killed = 0, finished = 0, old = 0, new = 0, temporariesLeftByKill = 0, temporariesAfterNextCommand = 0, other = 0
        var description: String {
            "\(killed) kills (\(finished) more runs ended before their kill): \(old) old, \(new) new, \(other) other; "
                + "\(temporariesLeftByKill) left a temporary file, \(temporariesAfterNextCommand) still there after the next command"
        }
    }

    @Test(arguments: scenarios)
    func aKilledSaveLeavesTheOldOrTheNewDocument(scenario: Scenario) throws {
        let box = try CLISandbox()
        let document = box.path("doc.outline")
        let backup = document + ".bak"
        func restore(_ bytes: Data) throws {
            try? FileManager.default.removeItem(atPath: backup)
            try bytes.write(to: URL(fileURLWithPath: document))
        }
        try Self.writeDocument(document, version: scenario.version, format: scenario.format, items: Self.items)
        let old = try box.bytes("doc.outline")

        // Undisturbed runs: the new bytes, and when the temporary file appears and is renamed.
        let first = try Self.runWatching(box, scenario.arguments)
        #expect(first.status == 0, "the undisturbed run failed")
        let new = try box.bytes("doc.outline")
        #expect(new != old)
        // A migration writes the same bytes each time; an added item records when it was
        // created, so the new document is then recognized by its rendering.
        try restore(old)
        let second = try Self.runWatching(box, scenario.arguments)
        #expect(second.status == 0)
        let isDeterministic = try box.bytes("doc.outline") == new
        #expect(isDeterministic || scenario.command == "add", "two migrations wrote different bytes")
        try restore(old)
        let oldShown = try box.run("show", "doc.outline", "--json").stdout
        try restore(new)
        let newShown = try box.run("show", "doc.outline", "--json").stdout

        let total = max(Self.kills / Self.scenarios.count, 2)
        // How long a run and its write take, first as measured, then corrected from what the
        // kills find (other tests share the machine, so durations drift): a run that ended
        // before its kill means the estimate is too long; a late kill that still found the old
        // document means it is too short.
        var runLength = min(first.duration, second.duration)
        var writeLength = max(min(first.writeLength, second.writeLength), 0.0005)
        let (initialRun, initialWrite) = (runLength, writeLength)
        var tally = Tally()
        let clock = ContinuousClock()
        let started = clock.now
        for kill in 0 ..< total {
            try restore(old)
            let process = try box.prepare(scenario.arguments)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let evenly = kill % 2 == 0
            // Fractions spread evenly over 0..<1 in any prefix of the kills (golden ratio steps).
            let fraction = (Double(kill / 2) * 0.6180339887498949).truncatingRemainder(dividingBy: 1)
            let exit = try process.start()
            if evenly {
                // Over the whole run and a little beyond.
                Self.sleep(runLength * 1.1 * fraction)
            } else {
                // Over the write: from the temporary file's creation to a little after the rename.
                let deadline = Date().addingTimeInterval(runLength * 5 + 1)
                while process.isRunning, try box.temporaries().isEmpty, Date() < deadline { Self.sleep(0.0002) }
                Self.sleep(writeLength * 1.3 * fraction)
            }
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            exit.wait()
            let wasKilled = process.terminationReason == .uncaughtSignal
            if wasKilled { tally.killed += 1 } else { tally.finished += 1 }

            if try !box.temporaries().isEmpty { tally.temporariesLeftByKill += 1 }
            if FileManager.default.fileExists(atPath: backup) {
                #expect(try box.bytes("doc.outline.bak") == old, "kill \(kill): the backup is not the old document")
            }
            // The next command opens the document, which must show as the old or the new one,
            // and clears what the killed save left.
            let now = try box.bytes("doc.outline")
            let shown = try box.run("show", "doc.outline", "--json")
            #expect(shown.status == 0, "kill \(kill): \(shown)")
            if now == old {
                tally.old += 1
                #expect(shown.stdout == oldShown, "kill \(kill): the old document shows differently")
            } else if isDeterministic ? now == new : now != old && shown.status == 0 && shown.stdout == newShown {
                tally.new += 1
                #expect(shown.stdout == newShown, "kill \(kill): the new document shows differently")
            } else {
                tally.other += 1
                Issue.record("kill \(kill): the document is neither the old nor the new one (\(now.count) bytes): \(shown)")
            }
            if try !box.temporaries().isEmpty { tally.temporariesAfterNextCommand += 1 }

            if !wasKilled {
                if evenly { runLength *= 0.9 } else { writeLength = max(writeLength * 0.85, 0.0003) }
            } else if now == old, evenly ? fraction > 0.9 : fraction > 0.75 {
                if evenly { runLength *= 1.05 } else { writeLength *= 1.1 }
            }
        }
        print(
            "CrashSafetyTests: \(scenario.testDescription), \(Self.items) items, run \(Self.milliseconds(initialRun)) -> \(Self.milliseconds(runLength)), write \(Self.milliseconds(initialWrite)) -> \(Self.milliseconds(writeLength)): \(tally), in \(clock.now - started)"
        )
        #expect(tally.other == 0 && tally.temporariesAfterNextCommand == 0)
        if total >= 40 {
            #expect(tally.killed >= total / 2, "too few runs were killed: \(tally)")
            #expect(tally.old > 0 && tally.new > 0, "the kills missed one side of the rename: \(tally)")
        }

    }

    /// What an undisturbed run showed, in seconds from its start.
    struct Watched {
        var status: Int32
        var duration: Double
        var temporaryAppeared: Double?
        var renamed: Double?

        /// From the temporary file's appearance to the rename.
        var writeLength: Double { (renamed ?? duration) - (temporaryAppeared ?? duration * 0.8) }
    }

    /// Runs the tool, watching the folder for the temporary file and for the document being replaced.
    static func runWatching(_ box: CLISandbox, _ arguments: [String]) throws -> Watched {
        let inode = { (try? FileManager.default.attributesOfItem(atPath: box.path("doc.outline")))?[.systemFileNumber] as? Int }
        let before = inode()
        let process = try box.prepare(arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        let exit = try process.start()
        var watched = Watched(status: 0, duration: 0)
        while process.isRunning {
            let elapsed = Date().timeIntervalSince(start)
            if watched.temporaryAppeared == nil, try !box.temporaries().isEmpty { watched.temporaryAppeared = elapsed }
            if watched.renamed == nil, inode() != before { watched.renamed = elapsed }
            sleep(0.0002)
        }
        exit.wait()
        watched.duration = Date().timeIntervalSince(start)
        watched.status = process.terminationStatus
        return watched
    }

    static func sleep(_ seconds: Double) {
        if seconds > 0 { usleep(UInt32(seconds * 1_000_000)) }
    }

    static func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }

    /// Writes an outline of `items` items at `version` (`Outline`, v1, titles its items
    /// `title`; later versions `text`): sections of 100 items under the root.
    static func writeDocument(_ path: String, version: String, format: DocumentFormat, items: Int) throws {
        let schema = try #require(try OutlineSchemas.version(named: version))
        let store = PersistentStore(schema: schema, path: path, format: format)
        let context = store.context
        let textKey = version == "Outline" ? "title" : "text"
        let isCurrent = version != "Outline"
        func item(_ text: String?, order: Int, parent: ManagedObject?) throws -> ManagedObject {
            let object = try context.insert("Item")
            try context.setValue(.integer(Int64(order)), forKey: "order", of: object)
            if let text { try context.setValue(.string(text), forKey: textKey, of: object) }
            if isCurrent {
                try context.setValue(.boolean(order % 7 == 3), forKey: "done", of: object)
                try context.setValue(.boolean(false), forKey: "collapsed", of: object)
            }
            if let parent { try context.setObject(parent, forKey: "parent", of: object) }
            return object
        }
        let root = try item(nil, order: 0, parent: nil)
        var section = root
        for n in 0 ..< items {
            if n % 100 == 0 {
                section = try item("Section \(n / 100 + 1) – ü", order: n / 100, parent: root)
            } else {
                _ = try item("Item \(n) with a few words of text", order: n % 100 - 1, parent: section)
            }
        }
        try store.save()
    }
}
