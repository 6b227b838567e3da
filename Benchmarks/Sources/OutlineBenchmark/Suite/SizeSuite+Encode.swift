import Foundation
import OutlineEngine
import OutlineStorage

/// `xml.encode`: the library formatting the document's XML into memory, against a floor that
/// formats the same bytes from plain arrays (see ``XMLEncodeFloor``), side by side. It keeps the
/// encoder honest when the disk dominates `xml.save`.
extension SizeSuite {
    func measureEncode(_ schema: Schema, paths: Paths, into samples: inout [String: Sample]) throws {
        let store = try PersistentStore.open(paths.binary, schema: schema)
        // What a save encodes: the document with its model embedded.
        var metadata = store.metadata
        if metadata.embeddedSchema == nil { metadata.embeddedSchema = schema }
        var xml = Data()
        samples["xml.encode"] = try measurer.measure(
            "xml.encode (XMLStore.write into memory)", prepare: { xml = Data() },
            run: {
                xml = XMLStore.write(store.context.graph, metadata: metadata)
            })
        let floor = try XMLEncodeFloor(store, libraryXML: xml)
        var floorXML = Data()
        samples["floor.xml-encode"] = try measurer.measure(
            "floor: format the same XML from arrays", prepare: { floorXML = Data() },
            run: {
                floorXML = floor.encode()
            })
        if floorXML == xml {
            log.line("  the floor's XML is identical to the library's (\(floorXML.count.formatted()) bytes)")
        } else {
            let at = zip(floorXML, xml).enumerated().first { $1.0 != $1.1 }?.offset ?? min(floorXML.count, xml.count)
            throw BenchmarkError("the XML encode floor wrote \(floorXML.count) bytes, the library \(xml.count); they differ from byte \(at)")
        }
    }
}
