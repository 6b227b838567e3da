import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// A binary document whose columns are nil in every row loads them as untouched columns; they
/// must behave like any other column afterwards: take values, undo, save in both formats.
@Suite struct AllNilColumnTests {
    @Test(arguments: [DocumentFormat.binary, .xml])
    func valuesSetAfterLoadingAnAllNilColumnAreSavedAndReloaded(_ format: DocumentFormat) throws {
        let schema = try StoreTestSchemas.allTypes()
        let original = PersistentStore(schema: schema)
        for _ in 0 ..< 5 { _ = try original.context.insert("Sample") }
        let written = try original.encoded(as: .binary)

        let store = try PersistentStore.load(written, schema: schema)
        let samples = try store.context.objects(ofEntity: "Sample")
        #expect(samples.count == 5)
        for key in ["int16", "boolean", "double", "date", "string", "binary", "uuid", "decimal"] {
            #expect(try samples.allSatisfy { try store.context.value(forKey: key, of: $0) == nil })
        }
        try store.context.setValue(.string("kept"), forKey: "string", of: samples[3])
        try store.context.setValue(.boolean(false), forKey: "boolean", of: samples[1])
        try store.context.setValue(.integer(-3), forKey: "int16", of: samples[4])
        try store.context.setValue(.double(0.5), forKey: "double", of: samples[0])
        let reloaded = try PersistentStore.load(try store.encoded(as: format), schema: schema)
        let again = try reloaded.context.objects(ofEntity: "Sample")
        #expect(try reloaded.context.value(forKey: "string", of: again[3]) == .string("kept"))
        #expect(try reloaded.context.value(forKey: "string", of: again[2]) == nil)
        #expect(try reloaded.context.value(forKey: "boolean", of: again[1]) == .boolean(false))
        #expect(try reloaded.context.value(forKey: "boolean", of: again[0]) == nil)
        #expect(try reloaded.context.value(forKey: "int16", of: again[4]) == .integer(-3))
        #expect(try reloaded.context.value(forKey: "double", of: again[0]) == .double(0.5))
        #expect(try reloaded.context.value(forKey: "date", of: again[0]) == nil)
    }

    @Test func undoingTheFirstValueOfAnAllNilColumnLeavesItNil() throws {
        let schema = try StoreTestSchemas.allTypes()
        let original = PersistentStore(schema: schema)
        for _ in 0 ..< 3 { _ = try original.context.insert("Sample") }
        let store = try PersistentStore.load(try original.encoded(as: .binary), schema: schema)
        let sample = try store.context.objects(ofEntity: "Sample")[2]
        try store.context.perform("Set string") { try store.context.setValue(.string("x"), forKey: "string", of: sample) }
        store.context.undo()
        #expect(try store.context.value(forKey: "string", of: sample) == nil)
        store.context.redo()
        #expect(try store.context.value(forKey: "string", of: sample) == .string("x"))
    }
}
