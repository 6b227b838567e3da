import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// Inputs kept from fuzzing (`Fuzz/`, `Fixtures/Fuzz/`), replayed through the entry points the
/// harnesses call: each must read, or fail with a ``StorageError`` that has a message; never
/// crash, hang or throw anything else; and what loads must be saved in every format and read
/// back (`WriteAfterReadTests`).
@Suite struct FuzzRegressionTests {
    static let folder = Fixtures.folder.appending(path: "Fuzz")

    /// The files of `Fixtures/Fuzz/TARGET/`, by name.
    static func inputs(_ target: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appending(path: target).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    static func bytes(_ target: String, _ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appending(path: target).appending(path: name)))
    }

    /// Runs `read`; a ``StorageError`` with a message is a pass, any other error a failure.
    static func readsOrFailsCleanly(_ name: String, _ read: () throws -> Void) {
        do {
            try read()
        } catch let error as StorageError {
            #expect(!error.message.isEmpty, "\(name): \(error.code) without a message")
            #expect(!error.description.isEmpty)
        } catch {
            Issue.record("\(name): threw \(type(of: error)), not StorageError: \(error)")
        }
    }

    @Test func everyFuzzTargetKeepsInputs() {
        for target in ["binary", "xml", "model", "opml"] {
            #expect(!Self.inputs(target).isEmpty, "Fixtures/Fuzz/\(target) is empty")
        }
    }

    @Test(arguments: inputs("binary"))
    func binaryDocumentLoadsOrFailsCleanly(_ name: String) throws {
        let bytes = try Self.bytes("binary", name)
        Self.readsOrFailsCleanly(name) { _ = try bytes.withUnsafeBytes { try BinaryStore.readMetadata($0, file: name) } }
        Self.readsOrFailsCleanly(name) {
            let store = try PersistentStore.load(bytes, name: name)
            // A kept undo history is taken over or refused with a StorageError, never a crash.
            if case .unusable(let error) = store.restoreHistory() { #expect(!error.message.isEmpty) }
            // What loads must read back once saved, in every format, also with one more object
            // (or refuse that object: a document at the last id once became unreadable).
            var failures = WriteAfterReadTests.failures(store, label: name)
            if let entity = store.schema.entityIndices.first(where: { !store.schema.entities[$0].isAbstract }),
                (try? store.context.insert(entity: entity)) != nil
            {
                failures += WriteAfterReadTests.failures(store, label: name + " with one more object")
            }
            #expect(failures.isEmpty, "\(failures)")
        }
    }

    @Test(arguments: inputs("xml"))
    func xmlStoreLoadsOrFailsCleanly(_ name: String) throws {
        let bytes = try Self.bytes("xml", name)
        let nestedList = try ModelReader.read(at: Fixtures.model("NestedTodoList.xcdatamodeld")).current
        Self.readsOrFailsCleanly(name) { _ = try XMLStore.readMetadata(bytes, file: name) }
        for schema in [nil, nestedList] {
            Self.readsOrFailsCleanly(name) {
                let store = try PersistentStore.load(bytes, schema: schema, name: name)
                // A kept undo history is taken over or refused with a StorageError, never a crash.
                if case .unusable(let error) = store.restoreHistory() { #expect(!error.message.isEmpty) }
                // What loads must read back once saved, in every format (a model derived from
                // the file is embedded with its own hashes beside the file's).
                var failures = WriteAfterReadTests.failures(store, label: name)
                if let entity = store.schema.entityIndices.first(where: { !store.schema.entities[$0].isAbstract }),
                    (try? store.context.insert(entity: entity)) != nil
                {
                    failures += WriteAfterReadTests.failures(store, label: name + " with one more object")
                }
                #expect(failures.isEmpty, "\(failures)")
            }
        }
    }

    @Test(arguments: inputs("model"))
    func modelContentsReadOrFailCleanly(_ name: String) throws {
        let contents = Data(try Self.bytes("model", name))
        Self.readsOrFailsCleanly(name) {
            let schema = try ModelReader.read(path: "Fuzz.xcdatamodel", in: ["Fuzz.xcdatamodel/contents": contents]).current
            _ = schema.versionHash
            _ = try ModelReader.readSchema(contents: ModelWriter.data(of: schema), name: "Fuzz", file: "rewritten")
        }
    }

    @Test(arguments: inputs("opml"))
    func opmlReadsOrFailsCleanly(_ name: String) throws {
        let data = Data(try Self.bytes("opml", name))
        Self.readsOrFailsCleanly(name) { _ = try OPMLReader.read(data, file: name) }
        Self.readsOrFailsCleanly(name) { _ = try OPMLReader.read(data, file: name, options: .init(strict: true, maxDepth: 64)) }
    }
}
