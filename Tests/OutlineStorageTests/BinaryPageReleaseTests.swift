import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// Binary reading gives back the inflated body's pages as it decodes, and copies big arenas a
/// slice at a time: values on either side of every slice and page boundary must come out whole.
@Suite struct BinaryPageReleaseTests {
    @Test func valuesSpanningReleasedSlicesReadBackExactly() throws {
        let schema = try StoreTestSchemas.allTypes()
        let store = PersistentStore(schema: schema)
        var expected: [String] = []
        // About 3.5 MiB of strings (more than three 1 MiB slices), lengths that do not divide
        // a page, non-ASCII characters straddling boundaries, and a second column after it.
        for i in 0 ..< 3_000 {
            let text = String(repeating: "é\(i % 10)ab", count: 1 + (i * 37) % 400)
            let sample = try store.context.insert("Sample")
            try store.context.setValue(.string(text), forKey: "string", of: sample)
            try store.context.setValue(.integer(Int64(i)), forKey: "int64", of: sample)
            try store.context.setValue(.binary(Data(repeating: UInt8(i % 251), count: i % 700)), forKey: "binary", of: sample)
            expected.append(text)
        }
        let bytes = try store.encoded(as: .binary)
        let loaded = try PersistentStore.load(bytes, schema: schema)
        let samples = try loaded.context.objects(ofEntity: "Sample")
        #expect(samples.count == 3_000)
        for sample in samples {
            guard case .integer(let i)? = try loaded.context.value(forKey: "int64", of: sample) else {
                Issue.record("int64 lost")
                continue
            }
            #expect(try loaded.context.value(forKey: "string", of: sample) == .string(expected[Int(i)]))
            #expect(try loaded.context.value(forKey: "binary", of: sample) == .binary(Data(repeating: UInt8(i % 251), count: Int(i) % 700)))
        }
        #expect(try loaded.encoded(as: .binary) == bytes)
    }
}
