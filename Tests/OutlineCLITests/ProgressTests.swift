import Foundation
import Testing

/// The progress display of convert and migrate: on standard error, and only on a terminal.
@Suite struct ProgressTests {
    @Test func noProgressIsDrawnWhenStandardErrorIsNotATerminal() throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: "Outline", items: [("Groceries", ["Milk"])])
        let converted = try box.run("convert", "old.outline", "new.outline")
        #expect(!converted.stderr.contains("\r") && !converted.stderr.contains("reading"), "\(converted)")
        let migrated = try box.run("migrate", "old.outline")
        #expect(migrated.stderr == "", "\(migrated)")
    }

    /// Runs the tool under `script`, which gives it a terminal, when the system has `script`.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressIsDrawnOnATerminalAndCleared() throws {
        let box = try CLISandbox()
        try box.writeDocument("old.outline", version: "Outline", items: [("Groceries", ["Milk"])])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = "'\(try CLI.binary().path)' convert old.outline new.outline"
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = box.folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        let exit = try process.start()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exit.wait()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("\r\u{1B}[Kreading old.outline…"), "\(output)")
        #expect(output.contains("% migrating: "), "\(output)")
        #expect(output.contains("\r\u{1B}[Kwriting new.outline…"), "\(output)")
        #expect(
            output.contains("\r\u{1B}[KNote: old.outline: migrated from Outline to Outline 3 on the way"),
            "the line is cleared before the note: \(output)")
    }
}
