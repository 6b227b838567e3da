import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTool
import Testing

/// Deep and big documents through the binary: nothing recursive, nothing quadratic.
///
/// Two shapes: a chain (each item the only child of the one before) and a wide document of
/// the same number of items. Each goes through every command: show (text and JSON), find,
/// edits that save, info, validate, convert to every format and back, migrate from an
/// `Outline` (v1) document of the same shape, and remove (a cascade through the whole chain).
///
/// The sizes default to what a debug build handles in seconds; set `OUTLINE_LARGE_ITEMS`
/// (for example to 1000000) to run the same tests at full size, and `OUTLINE_BINARY` to a
/// release build of `outline` to time that. Each test prints its commands' times.
///
/// Markdown and plain text nest by indentation, so a chain d levels deep needs about d²/2
/// indents: `convert` refuses when they pass ``DocumentConverter/maximumIndentation``, and
/// the chain goes through those formats at ``indentedDepth`` levels instead.
@Suite(.serialized) struct LargeDocumentTests {
    static let size = ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"].flatMap(Int.init) ?? 10_000
    /// The depth of the chain converted to Markdown and text and back: 1,000 levels (1 MB of
    /// Markdown) by default, 10,000 (100 MB) with `OUTLINE_LARGE_ITEMS`.
    static let indentedDepth = min(size, ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"] == nil ? 1_000 : 10_000)

    /// Writes an outline of `count` items under the root at schema version `version`: a
    /// single chain when `deep`, else items spread breadth-first with up to 1,000 children
    /// each. Item n's text (`title` in v1) is `item n`.
    static func write(_ path: String, count: Int, deep: Bool, version: String = "Outline 3") throws {
        let schema = try #require(try OutlineSchemas.version(named: version))
        let info = try #require(schema.info(named: "Item"))
        let order = try #require(info.attributeIndex(named: "order"))
        let text = try #require(info.attributeIndex(named: "text") ?? info.attributeIndex(named: "title"))
        let flags = ["done", "collapsed"].compactMap { info.attributeIndex(named: $0) }
        let parent = try #require(info.relationshipIndex(named: "parent"))
        var loader = GraphLoader(schema: schema)
        loader.reserve(entity: info.index, count: count + 1)
        var objects = [loader.appendObject(entity: info.index, id: ObjectID(102))]
        objects.reserveCapacity(deep ? 1 : count + 1)
        var childCounts = [0]
        var parentIndex = 0
        func setDefaults(_ object: ManagedObject, _ position: Int) {
            loader.setAttribute(object, order, .integer(Int64(position)))
            for flag in flags { loader.setAttribute(object, flag, .boolean(false)) }
        }
        setDefaults(objects[0], 0)
        var previous = objects[0]
        for n in 1 ... count {
            let object = loader.appendObject(entity: info.index, id: ObjectID(UInt64(102 + n)))
            loader.setAttribute(object, text, .string("item \(n)"))
            if deep {
                setDefaults(object, 0)
                loader.setRelated(object, parent, previous)
                previous = object
            } else {
                if childCounts[parentIndex] == 1000 { parentIndex += 1 }
                setDefaults(object, childCounts[parentIndex])
                loader.setRelated(object, parent, objects[parentIndex])
                childCounts[parentIndex] += 1
                objects.append(object)
                childCounts.append(0)
            }
        }
        let store = PersistentStore(context: EditingContext(graph: try loader.finish()), path: path)
        try store.save()
    }

    /// Runs commands in a sandbox, checking each succeeds, and keeps their times.
    final class Session {
        let box: CLISandbox
        var timings: [String] = []
        let clock = ContinuousClock()

        init() throws { box = try CLISandbox() }

        @discardableResult
        func run(_ arguments: String..., status: Int32 = 0) throws -> CLIResult {
            let start = clock.now
            let result = try box.run(arguments)
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            timings.append(String(format: "%7.2f s  ", seconds) + arguments.joined(separator: " "))
            #expect(result.status == status && !result.crashed, "\(arguments): exit \(result.status), \(result.stderr.prefix(2_000))")
            return result
        }

        func report(_ title: String) {
            print(
                "\(title), with \(ProcessInfo.processInfo.environment["OUTLINE_BINARY"] ?? "the debug build"):\n  "
                    + timings.joined(separator: "\n  "))
        }
    }

    @Test func aDeepDocumentWorksThroughEveryCommand() throws {
        let session = try Session()
        let box = session.box
        let count = Self.size
        try Self.write(box.path("deep.outline"), count: count, deep: true)
        try Self.write(box.path("deep-v1.outline"), count: count, deep: true, version: "Outline")

        let shown = try session.run("show", "deep.outline")
        let lines = shown.stdout.split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.last?.hasSuffix("(depth \(count)) item \(count)") == true, "\(lines.last ?? "")")
        let json = try session.run("show", "deep.outline", "--json")
        #expect(json.stdout.hasSuffix("\"children\": []" + String(repeating: "}]", count: count) + "}\n"))
        let found = try session.run("find", "deep.outline", "text == \"item \(count)\"")
        #expect(found.stdout.hasSuffix("(depth \(count)) item \(count)\n"), "\(found.stdout)")
        try session.run("info", "deep.outline")
        try session.run("validate", "deep.outline")

        // Every format and back: the same outline each time.
        try session.run("convert", "deep.outline", "deep.xml")
        try session.run("convert", "deep.xml", "from-xml.outline")
        try session.run("convert", "deep.outline", "deep.opml")
        try session.run("convert", "deep.opml", "from-opml.outline")
        for copy in ["deep.xml", "from-xml.outline", "from-opml.outline"] {
            #expect(try session.run("show", copy).stdout == shown.stdout, "\(copy) differs")
        }
        try Self.checkIndentedFormatsRefuse(session, "deep", depth: count)

        // Migrating an Outline v1 chain gives the same outline at the current version.
        try session.run("migrate", "deep-v1.outline", "--output", "migrated.outline")
        #expect(try session.run("show", "migrated.outline").stdout == shown.stdout)

        // Edits that save. A path that long does not fit in an argument (Linux allows 128 KiB); the id does.
        let deepest = "#\(102 + count)"
        let added = try session.run("add", "deep.outline", "leaf", "--under", deepest)
        #expect(added.stdout == Array(repeating: "1", count: count + 1).joined(separator: ".") + "\n")
        let moved = try session.run("move", "deep.outline", "#\(103 + count)", "--outdent")
        #expect(moved.stdout == Array(repeating: "1", count: count - 1).joined(separator: ".") + ".2\n")
        try session.run("edit", "deep.outline", deepest, "--done")
        try session.run("validate", "deep.outline")
        try session.run("show", "deep.outline", "--depth", "3")

        // Removing the top of the chain removes every item under it.
        try session.run("remove", "deep.outline", "1")
        #expect(try box.run("show", "deep.outline").stdout == "")
        try session.run("validate", "deep.outline")
        session.report("deep, \(count) levels")
    }

    /// Markdown and text of a chain as deep as their indentation allows, and back.
    @Test func aDeepChainGoesThroughIndentedFormats() throws {
        let session = try Session()
        let box = session.box
        let depth = Self.indentedDepth
        try Self.write(box.path("chain.outline"), count: depth, deep: true)
        let shown = try session.run("show", "chain.outline").stdout
        for ext in ["md", "txt"] {
            try session.run("convert", "chain.outline", "chain.\(ext)")
            try session.run("convert", "chain.\(ext)", "from-\(ext).outline")
            #expect(try session.run("show", "from-\(ext).outline").stdout == shown, "\(ext) differs")
        }
        // Past 23,170 levels, both need over 256 MiB of indentation.
        try Self.write(box.path("deeper.outline"), count: 23_200, deep: true)
        try Self.checkIndentedFormatsRefuse(session, "deeper", depth: 23_200)
        session.report("chain through Markdown and text, \(depth) levels")
    }

    /// Markdown indents by two spaces a level, text by one tab: depth × (depth - 1) bytes of
    /// indentation for a chain, or half that. Chains too deep for them are refused with a message.
    static func checkIndentedFormatsRefuse(_ session: Session, _ name: String, depth: Int) throws {
        for (ext, format, unit) in [("md", "Markdown", 2), ("txt", "plain text", 1)]
        where depth * (depth - 1) / 2 * unit > DocumentConverter.maximumIndentation {
            let refused = try session.run("convert", "\(name).outline", "\(name).\(ext)", status: 1)
            #expect(
                refused.stderr == "Error: \(name).\(ext): the outline is nested \(grouped(depth)) levels deep; as \(format) its "
                    + "indentation alone would take \(grouped(depth * (depth - 1) / 2 * unit)) bytes, over the limit of 268,435,456. "
                    + "\(format.prefix(1).uppercased() + format.dropFirst()) nests items by indenting them; convert to OPML, Core Data XML "
                    + "or binary instead, which hold any depth.\n")
            #expect(!session.box.exists("\(name).\(ext)"))
        }
    }

    @Test func aBigDocumentWorksThroughEveryCommand() throws {
        let session = try Session()
        let box = session.box
        let count = Self.size
        try Self.write(box.path("big.outline"), count: count, deep: false)
        try Self.write(box.path("big-v1.outline"), count: count, deep: false, version: "Outline")

        let shown = try session.run("show", "big.outline")
        #expect(shown.stdout.split(separator: "\n").count == count)
        let json = try session.run("show", "big.outline", "--json")
        #expect(try json.shownOutline().items.count == min(count, 1_000))
        let found = try session.run("find", "big.outline", "text == \"item \(count)\"")
        #expect(found.stdout.hasSuffix(" item \(count)\n"), "\(found.stdout)")
        try session.run("info", "big.outline")
        try session.run("validate", "big.outline")
        let dumped = try session.run("dump", "big.outline", "--json")
        #expect(dumped.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"entity\"") }.count == count + 1, "every item and the root")

        // Every format and back: the same outline each time.
        try session.run("convert", "big.outline", "big.xml")
        try session.run("convert", "big.xml", "from-xml.outline")
        for ext in ["opml", "md", "txt"] {
            try session.run("convert", "big.outline", "big.\(ext)")
            try session.run("convert", "big.\(ext)", "from-\(ext).outline")
        }
        for copy in ["big.xml", "from-xml.outline", "from-opml.outline", "from-md.outline", "from-txt.outline"] {
            #expect(try session.run("show", copy).stdout == shown.stdout, "\(copy) differs")
        }

        // Migrating an Outline v1 document gives the same outline at the current version.
        try session.run("migrate", "big-v1.outline", "--output", "migrated.outline")
        #expect(try session.run("show", "migrated.outline").stdout == shown.stdout)
        try session.run("migrate", "big.outline", "--to", "Outline 2", "--output", "big2.outline")

        // Edits that save.
        try session.run("add", "big.outline", "first", "--at", "1")
        try session.run("move", "big.outline", "1", "--down")
        try session.run("edit", "big.outline", "1", "--done")
        try session.run("validate", "big.outline")

        // Removing item 1 (back at the top after the move) removes its whole subtree.
        try session.run("remove", "big.outline", "1")
        #expect(try box.run("show", "big.outline").stdout.split(separator: "\n").count == count + 1 - Self.subtreeSize(of: 1, count: count))
        try session.run("validate", "big.outline")
        session.report("big, \(count) items")
    }

    /// How many items the subtree of item `item` of a wide document of `count` items holds
    /// (the children of item p are items 1000p+1 ... 1000p+1000).
    static func subtreeSize(of item: Int, count: Int) -> Int {
        var size = 0
        var level = item ... item
        while level.lowerBound <= count {
            size += min(level.upperBound, count) - level.lowerBound + 1
            level = (1000 * level.lowerBound + 1) ... (1000 * level.upperBound + 1000)
        }
        return size
    }

    /// `1234567` as `1,234,567`, as messages write numbers.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return digits.enumerated().map { i, c in (i > 0 && (digits.count - i) % 3 == 0 ? "," : "") + String(c) }.joined()
    }
}
