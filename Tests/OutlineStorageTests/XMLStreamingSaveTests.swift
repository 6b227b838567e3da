import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// XML stores are saved in pieces straight into the temporary file: the bytes are exactly those
/// of the in-memory writer, and a failed piece leaves the target untouched and no temporary file.
@Suite struct XMLStreamingSaveTests {
    /// The all-types fixture plus a few hundred objects with long, escaped texts and binary
    /// values, so that the store spans many small pieces and values straddle their edges.
    static func bigGraph() throws -> (ObjectGraph, StoreMetadata) {
        let (graph, metadata) = try XMLFixture.read("AllTypes.xml", schema: try XMLFixture.allTypesSchema())
        let context = EditingContext(graph: graph)
        let note = try #require(graph.schema.info(named: "Note"))
        let record = try #require(graph.schema.info(named: "Record"))
        for i in 0 ..< 300 {
            let object = try context.insert(entity: note.index)
            let text = String(repeating: "line \(i) <&> \\u2600 crème\n", count: i % 7 * 40 + 1)
            try context.setAttribute(.string(text), try #require(note.attributeIndex(named: "text")), of: object)
            if i % 10 == 0 {
                let blob = try context.insert(entity: record.index)
                let bytes = Data((0 ..< (i * 37 % 9000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                try context.setAttribute(.binary(bytes), try #require(record.attributeIndex(named: "blob")), of: blob)
            }
        }
        return (context.graph, metadata)
    }

    @Test func streamedPiecesAreTheBytesOfTheInMemoryWriter() throws {
        let (graph, metadata) = try Self.bigGraph()
        let whole = XMLStore.write(graph, metadata: metadata)
        var pieces: [[UInt8]] = []
        let header = try XMLStoreWriter.write(graph.snapshot(), metadata: metadata, pieceSize: 4096) { pieces.append(Array($0)) }
        #expect(pieces.count > 20)
        #expect(pieces.first == header)
        #expect(XMLFixture.text(Data(pieces.joined())) == XMLFixture.text(whole))
    }

    @Test func aPieceTheDiskRefusesLeavesTheTargetAndNoTemporaryFile() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "xml-streaming-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/notes.xml"
        try AtomicFile.write(Array("old".utf8), to: path)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try AtomicFile.write(to: path) { write in
                try Array("new".utf8).withUnsafeBytes { try write($0) }
                throw Refused()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.xml"])

        // A sink that fails part-way stops the writer, which throws its error at the end.
        let (graph, metadata) = try Self.bigGraph()
        var calls = 0
        #expect(throws: Refused.self) {
            _ = try XMLStoreWriter.write(graph.snapshot(), metadata: metadata, pieceSize: 4096) { _ in
                calls += 1
                if calls == 3 { throw Refused() }
            }
        }
        #expect(calls == 3)
    }
}
