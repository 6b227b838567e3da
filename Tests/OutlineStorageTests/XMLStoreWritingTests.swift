import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

@Suite struct XMLStoreWritingTests {
    enum Model: String, CaseIterable, Sendable {
        case nestedList, allTypes, embedded, derived
        func schema() throws -> Schema? {
            switch self {
            case .nestedList: try XMLFixture.nestedListSchema()
            case .allTypes: try XMLFixture.allTypesSchema()
            case .embedded, .derived: nil
            }
        }
    }

    /// Fixtures in Core Data's exact layout come back byte for byte, with their model, with
    /// the model they embed, and with the model derived from them (stored hashes are kept).
    @Test(arguments: [
        ("NestedList.xml", Model.nestedList), ("NestedList.xml", .derived),
        ("CustomMetadata.xml", .nestedList), ("CustomMetadata.xml", .derived),
        ("AllTypes.xml", .allTypes), ("AllTypes.xml", .derived),
        ("EmbeddedModel.xml", .embedded),
    ])
    func writesAppleLayoutBackByteForByte(_ fixture: String, _ model: Model) throws {
        let bytes = try XMLFixture.data(fixture)
        let (graph, metadata) = try XMLStore.read(bytes, schema: try model.schema(), file: fixture)
        #expect(XMLFixture.text(XMLStore.write(graph, metadata: metadata)) == XMLFixture.text(bytes))
    }

    @Test(arguments: [1, 2, 3, 4])
    func writeReadWriteIsByteIdentical(_ seed: UInt64) throws {
        let context = try GeneratedDocument.make(seed: seed, schema: try XMLFixture.allTypesSchema())
        var metadata = StoreMetadata(format: .xml)
        metadata[custom: "seed"] = .integer(Int64(seed))
        let first = XMLStore.write(context.graph, metadata: metadata)
        let (graph, readMetadata) = try XMLStore.read(first, schema: context.schema, file: "generated.xml")
        let second = XMLStore.write(graph, metadata: readMetadata)
        #expect(XMLFixture.text(second) == XMLFixture.text(first))
        #expect(graph.objectCount == context.graph.objectCount)
        for entity in context.schema.entityIndices {
            for object in context.graph.objects(ofEntity: entity, includingSubentities: false) {
                let copy = try #require(graph.object(with: context.graph.objectID(of: object)))
                for a in context.schema.infos[entity].storedAttributeIndices {
                    #expect(graph.attributeValue(of: copy, a) == context.graph.attributeValue(of: object, a))
                }
            }
        }
        // The derived model reads it too, and writes it back the same.
        let (derived, derivedMetadata) = try XMLStore.read(first, schema: nil, file: "generated.xml")
        #expect(XMLFixture.text(XMLStore.write(derived, metadata: derivedMetadata)) == XMLFixture.text(first))
    }

    /// Dates are `%.20f`; the integer formatter must agree with the C library on every double.
    @Test func datesAreFormattedExactlyLikePrintf() {
        var random = SplitMix(state: 7)
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, 730000000.123456789, -31622400.5, 1e18, 1.8446744073709552e19, 1e300,
            .leastNonzeroMagnitude, .leastNormalMagnitude, 0.1, 0.3, 2.5e-8, 0.00390625, 1 / 3.0,
            .greatestFiniteMagnitude, .infinity, -.infinity, .nan, 123456789.98765432,
        ]
        for _ in 0 ..< 20_000 {
            values.append(Double(bitPattern: random.next()))
            values.append(Double(Int64(bitPattern: random.next()) % 4_000_000_000) + Double(random.next() % 1_000_000) / 1_000_000)
        }
        var mismatches: [String] = []
        for value in values {
            var output = XMLOutputBuffer(capacity: 64)
            XMLNumberFormatting.appendFixed20(value, to: &output)
            let ours = String(decoding: output.takeData(), as: UTF8.self)
            let c = XMLNumberFormatting.printf20(value)
            if ours != c { mismatches.append("\(value.bitPattern): \(ours) vs \(c)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test(arguments: [
        (0, "\n"), (3, "AQID\n"), (57, String(repeating: "A", count: 76) + "\n"),
        (58, String(repeating: "A", count: 76) + "\nAA==\n"),
        (200, String(repeating: "A", count: 76) + "\n" + String(repeating: "A", count: 190) + "A=\n"),
    ])
    func binaryHasALineFeedAfterTheFirst76CharactersOnly(_ count: Int, _ expected: String) throws {
        let data = count == 3 ? Data([1, 2, 3]) : Data(count: count)
        let (graph, record) = try Self.record(["blob": .binary(data)])
        let text = XMLFixture.text(XMLStore.write(graph, metadata: StoreMetadata(format: .xml)))
        #expect(text.contains("<attribute name=\"blob\" type=\"binary\">\(expected)</attribute>"))
        let (read, _) = try XMLStore.read(Data(text.utf8), schema: graph.schema, file: "blob.xml")
        #expect(read.value(try #require(read.object(with: graph.objectID(of: record))), "blob") == .binary(data))
    }

    @Test(arguments: [
        ("a&b<c>d", "a\\u2600b\\u3c00c\\u3e00d"),
        ("quotes \" ' and\nnewlines\ttabs", "quotes \" ' and\nnewlines\ttabs"),
        ("C:\\users\\u2600x", "C:\\users\\u5c00u2600x"),
        ("cr\r\nlf", "cr&#13;\nlf"),
        ("bell\u{7}nul\u{0}", "bell\\u0700nul\\u0000"),
        ("not a char \u{FFFE}\u{FFFF}", "not a char \\ufeff\\uffff"),
        ("日本語 é 😀", "日本語 é 😀"),
        ("", ""),
    ])
    func escapesStringsLikeCoreData(_ value: String, _ written: String) throws {
        let (graph, record) = try Self.record(["name": .string(value)])
        let text = XMLFixture.text(XMLStore.write(graph, metadata: StoreMetadata(format: .xml)))
        #expect(text.contains("<attribute name=\"name\" type=\"string\">\(written)</attribute>"))
        let (read, _) = try XMLStore.read(Data(text.utf8), schema: graph.schema, file: "escapes.xml")
        #expect(read.value(try #require(read.object(with: graph.objectID(of: record))), "name") == .string(value))
    }

    @Test func leavesOutDeletedObjectsAndReferencesToThem() throws {
        let context = EditingContext(schema: try XMLFixture.nestedListSchema())
        let root = try context.insert("Item")
        let kept = try context.insert("Item")
        let gone = try context.insert("Item")
        try context.add(kept, toKey: "children", of: root)
        try context.add(gone, toKey: "children", of: root)
        try context.delete(gone)
        let text = XMLFixture.text(XMLStore.write(context.graph, metadata: StoreMetadata(format: .xml)))
        #expect(!text.contains("z104"))
        #expect(text.contains("idrefs=\"z103\""))
        #expect(text.contains("<nextObjectID>104</nextObjectID>"), "the highest id allocated, even when deleted")
    }

    @Test func writesObjectsInIDOrderAcrossEntities() throws {
        let context = EditingContext(schema: try XMLFixture.garageSchema())
        for i in 0 ..< 6 { _ = try context.insert(i % 3 == 0 ? "Vehicle" : "Picture") }
        let text = XMLFixture.text(XMLStore.write(context.graph, metadata: StoreMetadata(format: .xml)))
        let ids = text.split(separator: "\n").filter { $0.contains("<object ") }.map { $0.split(separator: "\"")[3] }
        #expect(ids == ["z102", "z103", "z104", "z105", "z106", "z107"])
    }

    @Test func sortsMetadataKeysAndEmbedsTheModelWhenAsked() throws {
        let schema = try XMLFixture.nestedListSchema()
        var metadata = StoreMetadata(format: .xml, uuid: UUID(uuidString: "8d2f6c1e-0000-4000-8000-000000000001")!)
        metadata.embeddedSchema = schema
        metadata.custom = [("zeta", .integer(1)), ("Alpha", .string("a")), ("NSStoreType", .string("ignored"))]
        let text = XMLFixture.text(XMLStore.write(ObjectGraph(schema: schema), metadata: metadata))
        let keys = text.split(separator: "\n").filter { $0.contains("<key>") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            keys == [
                "<key>Alpha</key>", "<key>NSPersistenceFrameworkVersion</key>", "<key>NSStoreModelVersionHashes</key>",
                "<key>Item</key>", "<key>NSStoreModelVersionHashesVersion</key>",
                "<key>NSStoreModelVersionIdentifiers</key>", "<key>OutlineEmbeddedModel</key>",
                "<key>OutlineEmbeddedModelName</key>", "<key>zeta</key>",
            ])
        #expect(text.contains("<UUID>8D2F6C1E-0000-4000-8000-000000000001</UUID>"))
        #expect(text.contains("<nextObjectID>101</nextObjectID>"))
        #expect(text.hasSuffix("    </databaseInfo>\n</database>"))
        let (graph, read) = try XMLStore.read(Data(text.utf8), schema: nil, file: "empty.xml")
        #expect(graph.objectCount == 0)
        #expect(read.embeddedSchema?.entityVersionHashes == schema.entityVersionHashes)
        #expect(read.custom.map(\.key) == ["Alpha", "zeta"])
    }

    @Test func computesHashesForEntitiesTheMetadataDoesNotList() throws {
        let schema = try XMLFixture.allTypesSchema()
        let text = XMLFixture.text(XMLStore.write(ObjectGraph(schema: schema), metadata: StoreMetadata(format: .xml)))
        let metadata = try XMLStore.readMetadata(Data(text.utf8), file: "hashes.xml")
        #expect(metadata.versionHashes == schema.entityVersionHashes)
        #expect(metadata.frameworkVersion == 1251 && metadata.versionIdentifiers == [""])
    }

    // MARK: Helpers

    /// A graph of the all-types model holding one record with `values`.
    static func record(_ values: [String: Value]) throws -> (ObjectGraph, ManagedObject) {
        let context = EditingContext(schema: try XMLFixture.allTypesSchema())
        let record = try context.insert("Record")
        for (key, value) in values { try context.setValue(value, forKey: key, of: record) }
        return (context.graph, record)
    }
}

/// A 64-bit pseudo-random generator with a fixed seed (SplitMix64).
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

/// Random documents of the all-types model: every attribute type with awkward values,
/// relationships of every kind, and deleted objects.
enum GeneratedDocument {
    static let texts = [
        "", "plain", "a & b < c > d", "\\u2600 literally", "日本語 😀", "cr\r\nlf", "tab\tand\nnewline",
        "\u{1}\u{1F}\u{FFFE}", "\"quoted\" 'single'", String(repeating: "long ", count: 40),
    ]

    static func make(seed: UInt64, schema: Schema) throws -> EditingContext {
        var random = SplitMix(state: seed)
        let context = EditingContext(schema: schema)
        var records: [ManagedObject] = []
        var bases: [ManagedObject] = []
        var people: [ManagedObject] = []
        for _ in 0 ..< 4 {
            let person = try context.insert("Person")
            try context.setValue(random.below(3) == 0 ? nil : .string(texts[random.below(texts.count)]), forKey: "fullName", of: person)
            people.append(person)
        }
        for i in 0 ..< 40 {
            let isNote = random.below(4) == 0
            let object = try context.insert(isNote ? "Note" : "Record")
            bases.append(object)
            func maybe(_ value: @autoclosure () -> Value) -> Value? { random.below(5) == 0 ? nil : value() }
            try context.setValue(
                maybe(.date(Date(timeIntervalSinceReferenceDate: Double(Int64(bitPattern: random.next()) % 2_000_000_000) / 7))),
                forKey: "created", of: object)
            if isNote {
                try context.setValue(maybe(.string(texts[random.below(texts.count)])), forKey: "text", of: object)
                continue
            }
            records.append(object)
            try context.setValue(maybe(.integer(Int64(Int16.min) + Int64(random.below(65536)))), forKey: "small", of: object)
            try context.setValue(maybe(.integer(Int64(Int32(truncatingIfNeeded: random.next())))), forKey: "medium", of: object)
            try context.setValue(maybe(.integer(Int64(bitPattern: random.next()))), forKey: "large", of: object)
            try context.setValue(maybe(.boolean(random.below(2) == 0)), forKey: "flag", of: object)
            try context.setValue(
                maybe(.double(Double(Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x7F7F_FFFF)))),
                forKey: "ratio", of: object)
            try context.setValue(maybe(.double(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))), forKey: "amount", of: object)
            try context.setValue(maybe(.decimal(Decimal(Int(random.below(1_000_000)) - 500_000) / 1000)), forKey: "price", of: object)
            // Dates as clocks make them: %.20f keeps every bit of those (not of values below 1e-20).
            let seconds = Double(Int64(bitPattern: random.next()) % 4_000_000_000) + Double(random.next() % 1_000_000_000) / 1e9
            try context.setValue(maybe(.date(Date(timeIntervalSinceReferenceDate: seconds))), forKey: "when", of: object)
            try context.setValue(
                maybe(.binary(Data((0 ..< random.below(150)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))),
                forKey: "blob", of: object)
            try context.setValue(maybe(.string(texts[random.below(texts.count)])), forKey: "name", of: object)
            try context.setValue(maybe(.uuid(UUID())), forKey: "ident", of: object)
            try context.setValue(maybe(.string("https://example.com/\(i)?a=1&b=2")), forKey: "link", of: object)
            try context.setValue(maybe(.binary(Data([UInt8(i)]))), forKey: "payload", of: object)
            try context.setObject(people[random.below(people.count)], forKey: "owner", of: object)
        }
        for (i, record) in records.enumerated() where i > 0 && random.below(2) == 0 {
            try context.setObject(records[i - 1], forKey: "previous", of: record)
        }
        for _ in 0 ..< 10 {
            let a = records[random.below(records.count)]
            let b = records[random.below(records.count)]
            if a != b && !context.graph.relatedObjects(of: a, context.schema.infos[a.entity].relationshipIndex(named: "related")!).contains(b) {
                try context.add(b, toKey: "related", of: a)
            }
        }
        for _ in 0 ..< 3 {
            let tag = try context.insert("Tag")
            try context.setValue(.string("tag"), forKey: "label", of: tag)
            for _ in 0 ..< random.below(6) {
                let member = bases[random.below(bases.count)]
                let items = context.graph.relatedObjects(of: tag, context.schema.infos[tag.entity].relationshipIndex(named: "items")!)
                if !items.contains(member) { try context.add(member, toKey: "items", of: tag) }
            }
        }
        try context.delete(records[random.below(records.count)])
        try context.delete(people[0])
        return context
    }
}
