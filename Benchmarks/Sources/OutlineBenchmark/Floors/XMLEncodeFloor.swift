import Foundation
import OutlineEngine
import OutlineStorage

/// The floor of `xml.encode`: the same XML bytes the library writes for the generated outline,
/// formatted into memory by a minimal loop over plain arrays of the same values (no graph, no
/// per-entity plans, no escaping beyond the `&`, `<` and `>` the titles hold).
///
/// The arrays are taken from the document once, outside the timing. The part before the first
/// object (prolog and `<databaseInfo>`: a few kilobytes of metadata and the embedded model) is
/// copied from the library's own output, so the floor formats exactly the objects. Only what
/// the generated document holds is supported: `Item` objects (collapsed, done, order, text,
/// children, parent, tags) in ascending id order; anything else is refused with a
/// ``BenchmarkError`` rather than formatted wrongly.
struct XMLEncodeFloor {
    /// The library's bytes up to and including `</databaseInfo>\n`.
    var prefix: [UInt8]
    var ids: [UInt64] = []
    var collapsed: [UInt8] = []
    var done: [UInt8] = []
    var order: [Int64] = []
    /// Every title's UTF-8 bytes, one after the other; `textStarts[i] ..< textStarts[i + 1]`.
    var textBytes: [UInt8] = []
    var textStarts: [Int] = [0]
    /// Child ids of every item, one after the other; `childStarts[i] ..< childStarts[i + 1]`.
    var children: [UInt64] = []
    var childStarts: [Int] = [0]
    /// The parent's id, 0 for none.
    var parents: [UInt64] = []

    /// Takes the values of `store`'s items into plain arrays, and the prefix from `libraryXML`
    /// (what `xml.encode` produced for the same store).
    init(_ store: PersistentStore, libraryXML: Data) throws {
        guard let end = libraryXML.range(of: Data("</databaseInfo>\n".utf8))?.upperBound else {
            throw BenchmarkError("the library's XML has no </databaseInfo>")
        }
        prefix = [UInt8](libraryXML[libraryXML.startIndex ..< end])
        let graph = store.context.graph
        let schema = graph.schema
        guard let item = schema.info(named: "Item") else { throw BenchmarkError("the schema has no Item entity") }
        for info in schema.infos where info.index != item.index && graph.count(ofEntity: info.index) > 0 {
            throw BenchmarkError("the XML encode floor formats Item objects only, the document has \(info.name) objects")
        }
        func attribute(_ name: String) throws -> AttributeIndex {
            guard let index = item.attributeIndex(named: name) else { throw BenchmarkError("Item has no attribute \(name)") }
            return index
        }
        func relationship(_ name: String) throws -> RelationshipIndex {
            guard let index = item.relationshipIndex(named: name) else { throw BenchmarkError("Item has no relationship \(name)") }
            return index
        }
        let (collapsedIndex, doneIndex, orderIndex, textIndex) = try (
            attribute("collapsed"), attribute("done"), attribute("order"), attribute("text")
        )
        let unsupported = try ["created", "note", "extraAttributes"].map(attribute)
        let (childrenIndex, parentIndex, tagsIndex) = try (relationship("children"), relationship("parent"), relationship("tags"))

        var objects = graph.objects(ofEntity: item.index)
        objects.sort { graph.objectID(of: $0) < graph.objectID(of: $1) }
        let count = objects.count
        ids.reserveCapacity(count)
        parents.reserveCapacity(count)
        for object in objects {
            for index in unsupported where graph.attributeValue(of: object, index) != nil {
                throw BenchmarkError("the XML encode floor does not format Item.\(item[index].name)")
            }
            guard graph.relatedObjects(of: object, tagsIndex).isEmpty else { throw BenchmarkError("the XML encode floor does not format tags") }
            ids.append(graph.objectID(of: object).rawValue)
            collapsed.append(Self.flag(graph.attributeValue(of: object, collapsedIndex)))
            done.append(Self.flag(graph.attributeValue(of: object, doneIndex)))
            guard let value = graph.attributeValue(of: object, orderIndex)?.integerValue else {
                throw BenchmarkError("an item has no order")
            }
            order.append(value)
            if let title = graph.attributeValue(of: object, textIndex)?.stringValue { textBytes.append(contentsOf: title.utf8) }
            textStarts.append(textBytes.count)
            children.append(contentsOf: graph.relatedObjects(of: object, childrenIndex).map { graph.objectID(of: $0).rawValue })
            childStarts.append(children.count)
            parents.append(graph.relatedObject(of: object, parentIndex).map { graph.objectID(of: $0).rawValue } ?? 0)
        }
    }

    private static func flag(_ value: Value?) -> UInt8 {
        value?.booleanValue.map { $0 ? 1 : 0 } ?? 0xFF
    }

    /// Formats the document: the prefix, then every item, into one buffer.
    ///
    /// - Complexity: one pass over the arrays.
    func encode() -> Data {
        // Reserved as generously as the library's writer does (a buffer that has to grow copies
        // everything written so far): 64 bytes per object, 64 per attribute (7), 96 per
        // relationship (3), 4/3 of the text bytes.
        var out = FloorBuffer(capacity: 4096 + prefix.count + ids.count * (64 + 64 * 7 + 96 * 3) + textBytes.count * 4 / 3)
        prefix.withUnsafeBytes { out.append($0) }
        textBytes.withUnsafeBufferPointer { text in
            for i in 0 ..< ids.count {
                out.append("    <object type=\"ITEM\" id=\"z")
                out.decimal(ids[i])
                out.append("\">\n")
                if collapsed[i] != 0xFF {
                    out.append("        <attribute name=\"collapsed\" type=\"bool\">")
                    out.byte(0x30 + collapsed[i])
                    out.append("</attribute>\n")
                }
                if done[i] != 0xFF {
                    out.append("        <attribute name=\"done\" type=\"bool\">")
                    out.byte(0x30 + done[i])
                    out.append("</attribute>\n")
                }
                out.append("        <attribute name=\"order\" type=\"int64\">")
                if order[i] < 0 { out.byte(0x2D) }
                out.decimal(order[i].magnitude)
                out.append("</attribute>\n")
                let start = textStarts[i]
                let end = textStarts[i + 1]
                if end > start {
                    out.append("        <attribute name=\"text\" type=\"string\">")
                    var run = start
                    for k in start ..< end {
                        let byte = text[k]
                        guard byte == 0x26 || byte == 0x3C || byte == 0x3E else { continue }
                        out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[run ..< k]))
                        out.append(byte == 0x26 ? "\\u2600" : byte == 0x3C ? "\\u3c00" : "\\u3e00")
                        run = k + 1
                    }
                    out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[run ..< end]))
                    out.append("</attribute>\n")
                }
                out.append("        <relationship name=\"children\" type=\"0/0\" destination=\"ITEM\"")
                let first = childStarts[i]
                let last = childStarts[i + 1]
                if last > first {
                    out.append(" idrefs=\"z")
                    out.decimal(children[first])
                    for k in first + 1 ..< last {
                        out.append(" z")
                        out.decimal(children[k])
                    }
                    out.byte(0x22)
                }
                out.append("></relationship>\n        <relationship name=\"parent\" type=\"1/1\" destination=\"ITEM\"")
                if parents[i] != 0 {
                    out.append(" idrefs=\"z")
                    out.decimal(parents[i])
                    out.byte(0x22)
                }
                out.append("></relationship>\n        <relationship name=\"tags\" type=\"0/0\" destination=\"TAG\"></relationship>\n    </object>\n")
            }
        }
        out.append("</database>")
        return out.take()
    }
}

/// A malloc'd byte buffer that doubles when full: the least a formatter into memory needs.
private struct FloorBuffer: ~Copyable {
    var base: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
        adviseHugePages()
    }

    /// As the library's writer does: 2 MiB pages, so that first-touch page faults (a machine
    /// cost, not formatting) weigh the same on both sides.
    private func adviseHugePages() {
        #if os(Linux)
            let start = (Int(bitPattern: base) + 4095) & ~4095
            let end = (Int(bitPattern: base) + capacity) & ~4095
            guard capacity >= 4 << 20, end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        #endif
    }

    deinit { free(base) }

    @inline(__always) mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        capacity = max(capacity * 2, count + n)
        base = realloc(base, capacity)!.assumingMemoryBound(to: UInt8.self)
        adviseHugePages()
    }

    @inline(__always) mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    @inline(__always) mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    @inline(__always) mutating func decimal(_ value: UInt64) {
        reserve(20)
        var digits = 1
        var probe = value
        while probe >= 10 {
            digits += 1
            probe /= 10
        }
        var v = value
        var position = count + digits - 1
        repeat {
            base[position] = 0x30 + UInt8(v % 10)
            v /= 10
            position -= 1
        } while v > 0
        count += digits
    }

    consuming func take() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        discard self
        return data
    }
}
