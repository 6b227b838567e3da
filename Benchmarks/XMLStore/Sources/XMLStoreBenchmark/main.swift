import Foundation
@_spi(Storage) import OutlineEngine
import OutlineStorage

// Generates the notes' synthetic outline (depth up to 11, mean fan-out about 10.5, titles of
// 10-60 bytes, about a fifth with non-ASCII text) from a fixed seed, then times writing and
// reading it as an XML store. Medians of 5 runs.

struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let schema = try Schema(name: "Outline", entities: [
    Entity(name: "Item", attributes: [
        Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
        Attribute(name: "title", type: .string),
    ], relationships: [
        Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true, deleteRule: .cascade),
        Relationship(name: "parent", destination: "Item", inverse: "children"),
    ]),
])

func generate() throws -> ObjectGraph {
    var random = SplitMix(state: 42)
    var loader = GraphLoader(schema: schema)
    loader.reserve(entity: 0, count: count)
    let words = ["alpha", "beta", "gamma", "delta", "Groceries", "milk & eggs", "<draft>", "Crème brûlée", "日本語のメモ", "naïve", "plan"]
    var objects: [ManagedObject] = []
    var depth: [Int] = []
    var children: [[ManagedObject]] = []
    var queue = 0
    for i in 0 ..< count {
        let object = loader.appendObject(entity: 0, id: ObjectID(UInt64(102 + i)))
        objects.append(object)
        children.append([])
        var title = ""
        let length = 10 + random.below(51)
        while title.utf8.count < length { title += words[random.below(words.count)] + " " }
        loader.setAttribute(object, 1, .string(String(title.prefix(length))))
        if i == 0 {
            depth.append(0)
            loader.setAttribute(object, 0, .integer(0))
            continue
        }
        // Attach to the current parent in breadth-first order, about 10.5 children each.
        while queue < i - 1 && (children[queue].count >= 1 + random.below(20) || depth[queue] >= 11) { queue += 1 }
        let parent = objects[queue]
        loader.setAttribute(object, 0, .integer(Int64(children[queue].count)))
        children[queue].append(object)
        depth.append(depth[queue] + 1)
        loader.setRelated(object, 1, parent)
    }
    for (i, list) in children.enumerated() { loader.setRelated(objects[i], 0, list) }
    return try loader.finish()
}

func median(_ runs: Int = 5, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0 ..< runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return times.sorted()[runs / 2]
}

let graph = try generate()
let metadata = StoreMetadata(format: .xml)
var bytes = Data()
// `xml-store-benchmark N profile-write|profile-read`: one operation in a loop, for a profiler.
if CommandLine.arguments.count > 2 {
    bytes = XMLStore.write(graph, metadata: metadata)
    if CommandLine.arguments[2] == "save" {
        try bytes.write(to: URL(fileURLWithPath: CommandLine.arguments[3]))
        exit(0)
    }
    for _ in 0 ..< 20 {
        if CommandLine.arguments[2] == "profile-write" {
            bytes = XMLStore.write(graph, metadata: metadata)
        } else {
            _ = try XMLStore.read(bytes, schema: schema, file: "bench.xml")
        }
    }
    exit(0)
}
let write = median { bytes = XMLStore.write(graph, metadata: metadata) }
var loaded: ObjectGraph?
let read = try median { loaded = try XMLStore.read(bytes, schema: schema, file: "bench.xml").graph }
let readDerived = try median(3) { _ = try XMLStore.read(bytes, schema: nil, file: "bench.xml") }
let metadataOnly = try median { _ = try XMLStore.readMetadata(bytes, file: "bench.xml") }
let rewritten = XMLStore.write(loaded!, metadata: try XMLStore.readMetadata(bytes, file: "bench.xml"))
print("items: \(count), XML size: \(bytes.count / 1000) kB")
print(String(format: "write: %.1f ms (%.0f MB/s)", write, Double(bytes.count) / write / 1000))
print(String(format: "read with schema: %.1f ms (%.0f MB/s)", read, Double(bytes.count) / read / 1000))
print(String(format: "read without schema (derive + load): %.1f ms", readDerived))
print(String(format: "read metadata only: %.3f ms", metadataOnly))
print("write -> read -> write identical: \(rewritten == bytes)")
