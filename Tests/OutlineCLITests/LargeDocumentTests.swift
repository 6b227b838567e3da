import Foundation
import Testing
@_spi(Storage) import OutlineEngine
import OutlineKit
import OutlineStorage

/// Deep and big documents through the binary: nothing recursive, nothing quadratic.
///
/// The sizes default to what a debug build handles in seconds; set `OUTLINE_LARGE_ITEMS`
/// (for example to 1000000) to run the same tests at full size.
@Suite(.serialized) struct LargeDocumentTests {
    static let size = ProcessInfo.processInfo.environment["OUTLINE_LARGE_ITEMS"].flatMap(Int.init) ?? 50_000

    /// Writes an outline of `count` items under the root: a single chain when `deep`, else
    /// items spread breadth-first with up to 1,000 children each. Item n's text is `item n`.
    static func write(_ path: String, count: Int, deep: Bool) throws {
        let schema = try OutlineSchemas.current
        let info = try #require(schema.info(named: "Item"))
        let order = try #require(info.attributeIndex(named: "order"))
        let text = try #require(info.attributeIndex(named: "text"))
        let done = try #require(info.attributeIndex(named: "done"))
        let collapsed = try #require(info.attributeIndex(named: "collapsed"))
        let parent = try #require(info.relationshipIndex(named: "parent"))
        var loader = GraphLoader(schema: schema)
        loader.reserve(entity: info.index, count: count + 1)
        var objects = [loader.appendObject(entity: info.index, id: ObjectID(102))]
        objects.reserveCapacity(deep ? 1 : count + 1)
        var childCounts = [0]
        var parentIndex = 0
        func setDefaults(_ object: ManagedObject, _ position: Int) {
            loader.setAttribute(object, order, .integer(Int64(position)))
            loader.setAttribute(object, done, .boolean(false))
            loader.setAttribute(object, collapsed, .boolean(false))
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

    @Test func aDeepDocumentWorksThroughEveryCommand() throws {
        let box = try CLISandbox()
        let count = Self.size
        try Self.write(box.path("deep.outline"), count: count, deep: true)
        let clock = ContinuousClock()
        var timings: [String] = []
        func run(_ arguments: String...) throws -> CLIResult {
            let start = clock.now
            let result = try box.run(arguments)
            timings.append("\(arguments.prefix(2).joined(separator: " ")): \(clock.now - start)")
            #expect(result.status == 0 && !result.crashed, "\(arguments): exit \(result.status), \(result.stderr)")
            return result
        }
        let shown = try run("show", "deep.outline")
        let lines = shown.stdout.split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.last?.hasSuffix("(depth \(count)) item \(count)") == true, "\(lines.last ?? "")")
        let json = try run("show", "deep.outline", "--json")
        #expect(json.stdout.hasSuffix("\"children\": []" + String(repeating: "}]", count: count) + "}\n"))
        let found = try run("find", "deep.outline", "text == \"item \(count)\"")
        #expect(found.stdout.hasSuffix("(depth \(count)) item \(count)\n"), "\(found.stdout)")
        // A path that long does not fit in an argument (Linux allows 128 KiB); the id does.
        let deepest = "#\(102 + count)"
        let added = try run("add", "deep.outline", "leaf", "--under", deepest)
        #expect(added.stdout == Array(repeating: "1", count: count + 1).joined(separator: ".") + "\n")
        let moved = try run("move", "deep.outline", "#\(103 + count)", "--outdent")
        #expect(moved.stdout == Array(repeating: "1", count: count - 1).joined(separator: ".") + ".2\n")
        _ = try run("validate", "deep.outline")
        _ = try run("convert", "deep.outline", "deep.xml")
        _ = try run("show", "deep.xml", "--depth", "3")
        _ = try run("convert", "deep.outline", "deep.opml")
        _ = try run("remove", "deep.outline", "1")
        #expect(try box.run("show", "deep.outline").stdout == "")
        print("deep, \(count) levels:\n  " + timings.joined(separator: "\n  "))
    }

    @Test func aBigDocumentWorksThroughEveryCommand() throws {
        let box = try CLISandbox()
        let count = Self.size
        try Self.write(box.path("big.outline"), count: count, deep: false)
        let clock = ContinuousClock()
        var timings: [String] = []
        func run(_ arguments: String...) throws -> CLIResult {
            let start = clock.now
            let result = try box.run(arguments)
            timings.append("\(arguments.prefix(2).joined(separator: " ")): \(clock.now - start)")
            #expect(result.status == 0 && !result.crashed, "\(arguments): exit \(result.status), \(result.stderr)")
            return result
        }
        let shown = try run("show", "big.outline")
        #expect(shown.stdout.split(separator: "\n").count == count)
        _ = try run("show", "big.outline", "--json")
        let found = try run("find", "big.outline", "text == \"item \(count)\"")
        #expect(found.stdout.hasSuffix(" item \(count)\n"), "\(found.stdout)")
        _ = try run("add", "big.outline", "first", "--at", "1")
        _ = try run("move", "big.outline", "1", "--down")
        _ = try run("edit", "big.outline", "1", "--done")
        _ = try run("info", "big.outline")
        _ = try run("validate", "big.outline")
        _ = try run("convert", "big.outline", "big.xml")
        _ = try run("convert", "big.xml", "big.md")
        _ = try run("migrate", "big.outline", "--to", "Outline 2", "--output", "big2.outline")
        _ = try run("remove", "big.outline", "2")
        print("big, \(count) items:\n  " + timings.joined(separator: "\n  "))
    }
}
