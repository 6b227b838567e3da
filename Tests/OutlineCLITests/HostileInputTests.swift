import Foundation
import Testing

/// Hostile XML through the tool, under hard limits: each run gets 2 GiB of address space and
/// 60 s of CPU (`prlimit`), so a bomb that expands, a recursion that overflows or a loop that
/// hangs fails the test instead of the machine. Every input is refused with a message (exit 1)
/// or read (exit 0); none crashes, and no file named by the input shows in the output.
///
/// The inputs are generated, not committed: the 100 MB one would be too big to keep, and the
/// others are variations of the committed `Fixtures/XML/Hostile*.xml` and `Fixtures/OPML/External*.opml`.
/// With `/usr/bin/time` installed each run also prints its peak memory.
@Suite struct HostileInputTests {
    static let laughs =
        "<!DOCTYPE x [\n<!ENTITY lol0 \"lol\">\n"
        + (1 ... 9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }.joined(separator: "\n") + "\n]>"
    static let xxe = "<!DOCTYPE x [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
    static let networkDTD = "<!DOCTYPE x SYSTEM \"http://127.0.0.1:9/x.dtd\">"

    /// A real outline store (written by the tool's own code) with `doctype` in place of
    /// Core Data's, `text` at the start of the first string value, `attribute` as an extra
    /// attribute of the first object and `nested` after the header: read up to the hostile part.
    static func store(_ doctype: String, text: String = "", attribute: String = "a", nested: String = "") -> String {
        var xml = baseStore
        xml = xml.replacingOccurrences(of: #"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#, with: doctype)
        if let range = xml.range(of: #"type="string">"#) { xml.replaceSubrange(range, with: #"type="string">"# + text) }
        if let range = xml.range(of: "<object ") { xml.replaceSubrange(range, with: "<object extra=\"\(attribute)\" ") }
        if let range = xml.range(of: "</databaseInfo>") { xml.replaceSubrange(range, with: "</databaseInfo>" + nested) }
        return xml
    }

    /// An outline of two items as a Core Data XML store.
    static let baseStore: String = {
        let box = try! CLISandbox()
        try! box.writeDocument("base.xml", version: "Outline 3", format: .xml, items: [("one", ["two"])])
        return String(decoding: try! box.bytes("base.xml"), as: UTF8.self)
    }()

    static func opml(_ doctype: String, text: String = "x", attribute: String = "a", nested: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        \(doctype)
        <opml version="2.0"><head><title>\(text)</title></head><body><outline text="\(attribute)"/>\(nested)</body></opml>
        """
    }

    static func model(_ doctype: String, attribute: String = "Item", nested: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        \(doctype)
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Item" representedClassName="\(attribute)"><attribute name="text" optional="YES" attributeType="String"/></entity>\(nested)
        </model>
        """
    }

    static func nest(_ open: String, _ close: String, _ depth: Int) -> String {
        String(repeating: open, count: depth) + String(repeating: close, count: depth)
    }

    /// A generated file and the command that reads it (FILE stands for its path).
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let file: String
        let command: [String]
        let make: @Sendable () -> String
    }

    static let big = 100_000_000

    static let cases: [Case] = [
        Case(testDescription: "store: external entity", file: "xxe.xml", command: ["show", "FILE"]) { store(xxe, text: "&xxe;") },
        Case(testDescription: "store: the base store", file: "base.xml", command: ["show", "FILE"]) {
            store(#"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#)
        },
        Case(testDescription: "store: billion laughs", file: "laughs.xml", command: ["show", "FILE"]) { store(laughs, text: "&lol9;") },
        Case(testDescription: "store: network DTD", file: "dtd.xml", command: ["show", "FILE"]) { store(networkDTD) },
        Case(testDescription: "store: 100,000-deep nesting", file: "deep.xml", command: ["show", "FILE"]) {
            store("", nested: nest("<object type=\"ITEM\" id=\"z9\">", "</object>", 100_000))
        },
        Case(testDescription: "store: 100 MB attribute", file: "attribute.xml", command: ["show", "FILE"]) {
            store("", attribute: String(repeating: "A", count: big))
        },
        Case(testDescription: "store: 100 MB value", file: "value.xml", command: ["show", "FILE"]) {
            store("", text: String(repeating: "A", count: big))
        },
        Case(testDescription: "OPML: external entity", file: "xxe.opml", command: ["convert", "FILE", "out.outline"]) { opml(xxe, text: "&xxe;") },
        Case(testDescription: "OPML: billion laughs", file: "laughs.opml", command: ["convert", "FILE", "out.outline"]) {
            opml(laughs, attribute: "&lol9;")
        },
        Case(testDescription: "OPML: network DTD", file: "dtd.opml", command: ["convert", "FILE", "out.outline"]) { opml(networkDTD) },
        Case(testDescription: "OPML: 100,000-deep nesting", file: "deep.opml", command: ["convert", "FILE", "out.outline"]) {
            opml("", nested: nest("<outline text=\"n\">", "</outline>", 100_000))
        },
        Case(testDescription: "OPML: 100 MB attribute", file: "attribute.opml", command: ["convert", "FILE", "out.outline"]) {
            opml("", attribute: String(repeating: "A", count: big))
        },
        Case(testDescription: "model: external entity", file: "xxe/contents", command: ["schema", "show", "FILE"]) {
            model(xxe, attribute: "&xxe;")
        },
        Case(testDescription: "model: billion laughs", file: "laughs/contents", command: ["schema", "show", "FILE"]) {
            model(laughs, attribute: "&lol9;")
        },
        Case(testDescription: "model: network DTD", file: "dtd/contents", command: ["schema", "show", "FILE"]) { model(networkDTD) },
        Case(testDescription: "model: 100,000-deep nesting", file: "deep/contents", command: ["schema", "show", "FILE"]) {
            model("", nested: nest("<elements>", "</elements>", 100_000))
        },
        Case(testDescription: "model: 100 MB attribute", file: "attribute/contents", command: ["schema", "show", "FILE"]) {
            model("", attribute: String(repeating: "A", count: big))
        },
    ]

    /// Slow in a debug build (a minute or more each): run with `OUTLINE_LARGE_ITEMS` set.
    static let largeCases: [Case] =
        ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"] == nil
        ? []
        : [
            Case(testDescription: "OPML: 1,000,001-deep nesting", file: "deeper.opml", command: ["convert", "FILE", "out.outline"]) {
                opml("", nested: nest("<outline>", "</outline>", 1_000_001))
            },
            Case(testDescription: "Markdown: 100 MB line", file: "line.md", command: ["convert", "FILE", "out.outline"]) {
                "- " + String(repeating: "A", count: big) + "\n"
            },
        ]

    @Test(arguments: cases + largeCases)
    func hostileInputIsRefusedWithinLimits(_ hostile: Case) throws {
        let box = try CLISandbox()
        let url = URL(fileURLWithPath: box.path(hostile.file))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(hostile.make().utf8).write(to: url)
        let arguments = hostile.command.map { $0 == "FILE" ? hostile.file : $0 }
        let start = ContinuousClock.now
        let (result, peak) = try box.runLimited(arguments)
        let elapsed = ContinuousClock.now - start
        #expect(!result.crashed && (result.status == 0 || result.status == 1), "\(result)")
        let limit: Duration = Self.largeCases.contains { $0.testDescription == hostile.testDescription } ? .seconds(300) : .seconds(60)
        #expect(elapsed < limit, "took \(elapsed)")
        #expect(!result.stdout.contains("root:x:0:0") && !result.stderr.contains("root:x:0:0"))
        if result.status == 1 {
            // The tool names models by the path it was given (absolute here), documents as given.
            #expect(
                result.stderr.hasPrefix("Error: \(hostile.command.first == "schema" ? box.path(hostile.file) : hostile.file): "),
                "\(result.stderr.prefix(500))")
            #expect(result.stderr.count < 2_000, "\(result.stderr.prefix(500))")
        }
        print("hostile CLI \(hostile.testDescription): exit \(result.status), \(elapsed), peak \(peak ?? "?"): \(result.stderr.prefix(300))")
        if let expected = Self.expected[hostile.testDescription] {
            #expect(result.stderr.hasPrefix(expected), "\(result.stderr.prefix(500))")
        }
    }

    /// The start of what each refused input prints.
    static let expected: [String: String] = [:]
}

extension CLISandbox {
    /// Runs the tool under `prlimit` (2 GiB of address space, 60 s of CPU), through
    /// `/usr/bin/time` when present; returns the result and the peak memory `time` measured.
    func runLimited(_ arguments: [String]) throws -> (CLIResult, String?) {
        let timeTool = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil
        let report = path(".time-\(UUID().uuidString)")
        var command = ["/usr/bin/prlimit", "--as=\(2 << 30)", "--cpu=60", "--"]
        if let timeTool { command += [timeTool, "-f", "%M", "-o", report] }
        command += [try CLI.binary().path] + arguments
        let result = try run(executable: command[0], Array(command.dropFirst()))
        let peak = (try? String(contentsOfFile: report, encoding: .utf8))
            .flatMap { Int($0.split(separator: "\n").last ?? "") }
            .map { "\($0 / 1024) MB" }
        try? FileManager.default.removeItem(atPath: report)
        return (result, peak)
    }
}
