import Foundation
import OutlineEngine
import OutlineKit
import OutlineStorage
import OutlineTool

/// Where the time of the four store operations goes, through the library's public pieces:
/// not goals, evidence for whoever works on the library's speed. Each phase is what
/// `PersistentStore.open` or `save` does in turn (see `StoreCodec` and `PersistentStore+Saving`).
extension SizeSuite {
    /// The phases, named `phase.<operation>.<step>`.
    func measurePhases(_ schema: Schema, paths: Paths, into samples: inout [String: Sample]) throws {
        var bytes: [UInt8] = []
        samples["phase.binary-open.read"] = try measurer.measure("phase: binary open: read file") {
            bytes = try PlainFile.readAll(paths.binary)
        }
        var graph: ObjectGraph?
        samples["phase.binary-open.decode"] = try measurer.measure(
            "phase: binary open: BinaryStore.read", prepare: { graph = nil },
            run: {
                graph = try BinaryStore.read(bytes, schema: schema, file: paths.binary).0
            })
        let store = try PersistentStore.open(paths.binary, schema: schema)
        samples["phase.binary-save.validate"] = try measurer.measure("phase: binary save: validateForSave") {
            try store.context.validateForSave()
        }
        // What every CLI edit adds to an open and a save: the outline over the context
        // (root search, child order check) and the renumbering check OutlineFile.save runs.
        var document: OutlineDocument?
        samples["phase.edit.outline-document"] = try measurer.measure(
            "phase: edit: OutlineDocument(context:)", prepare: { document = nil },
            run: {
                document = try OutlineDocument(context: store.context)
            })
        guard let outline = document else { throw BenchmarkError("OutlineDocument(context:) returned nothing") }
        samples["phase.edit.renumber-check"] = try measurer.measure("phase: edit: renumberSiblings (no change)") {
            guard try outline.renumberSiblings() == 0 else { throw BenchmarkError("the generated document needed renumbering") }
        }
        var encoded: [UInt8] = []
        samples["phase.binary-save.encode"] = try measurer.measure("phase: binary save: BinaryStore.write") {
            encoded = try BinaryStore.write(store.context.graph, metadata: store.metadata)
        }
        samples["phase.binary-save.write"] = try measurer.measure("phase: binary save: AtomicFile.write") {
            try AtomicFile.write(encoded, to: paths.binarySaved)
        }
        bytes = try PlainFile.readAll(paths.xml)
        samples["phase.xml-open.parse"] = try measurer.measure(
            "phase: xml open: XMLStore.read", prepare: { graph = nil },
            run: {
                graph = try XMLStore.read(bytes, schema: schema, file: paths.xml).graph
            })
        guard graph != nil else { throw BenchmarkError("XMLStore.read returned no graph") }
        graph = nil
        bytes = []
        var metadata = store.metadata
        metadata.embeddedSchema = schema
        var xml = Data()
        samples["phase.xml-save.encode"] = try measurer.measure(
            "phase: xml save: XMLStore.write", prepare: { xml = Data() },
            run: {
                xml = XMLStore.write(store.context.graph, metadata: metadata)
            })
        samples["phase.xml-save.write"] = try measurer.measure("phase: xml save: AtomicFile.write") {
            _ = try xml.withUnsafeBytes { try AtomicFile.write($0, to: paths.xmlSaved) }
        }
    }

    /// The phase records, in the order measured.
    static let phaseNames = [
        "phase.binary-open.read", "phase.binary-open.decode",
        "phase.binary-save.validate", "phase.binary-save.encode", "phase.binary-save.write",
        "phase.edit.outline-document", "phase.edit.renumber-check",
        "phase.xml-open.parse",
        "phase.xml-save.encode", "phase.xml-save.write",
    ]
}
