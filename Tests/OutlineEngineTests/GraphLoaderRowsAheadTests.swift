import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// `GraphLoader.appendObjectAhead` and the typed setters, which stores reading objects one by
/// one use: they must give the graph that `appendObject` and `setAttribute` give.
@Suite struct GraphLoaderRowsAheadTests {
    /// An entity with an attribute of every storage kind, and a second one to interleave.
    static func schema() throws -> Schema {
        try Schema(
            name: "Kinds",
            entities: [
                Entity(
                    name: "Item",
                    attributes: [
                        Attribute(name: "count", type: .integer32),
                        Attribute(name: "done", type: .boolean),
                        Attribute(name: "weight", type: .double),
                        Attribute(name: "created", type: .date),
                        Attribute(name: "title", type: .string),
                        Attribute(name: "blob", type: .binary),
                        Attribute(name: "price", type: .decimal),
                        Attribute(name: "key", type: .uuid),
                    ],
                    relationships: [
                        Relationship(name: "children", destination: "Item", inverse: "parent", isToMany: true),
                        Relationship(name: "parent", destination: "Item", inverse: "children"),
                    ]),
                Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)]),
            ])
    }

    /// The value row `i` gets for attribute `a` (nil for some rows of every attribute).
    static func value(_ a: Int, _ i: Int) -> Value? {
        guard (i + a) % 5 != 0 else { return nil }
        switch a {
        case 0: return .integer(Int64(i) - 20_000)
        case 1: return .boolean(i % 3 == 0)
        case 2: return .double(Double(i) / 4)
        case 3: return .date(Date(timeIntervalSinceReferenceDate: Double(i) * 60))
        case 4: return .string(i % 7 == 0 ? "" : "item \(i) ✓")
        case 5: return .binary(Data([UInt8(i & 0xFF), 0, 7]))
        case 6: return .decimal(Decimal(i) / 100)
        default: return .uuid(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", i))!)
        }
    }

    /// Loads `items` items (each the child of the one before, every 1,000th a Tag too) through
    /// the path a store reading objects one by one takes, or through the row-by-row one.
    static func load(items: Int, ahead: Bool) throws -> GraphLoader {
        let schema = try schema()
        var loader = GraphLoader(schema: schema)
        var previous: ManagedObject?
        for i in 0 ..< items {
            let id = ObjectID(UInt64(2 * i + 102))
            let object = ahead ? loader.appendObjectAhead(entity: 0, id: id) : loader.appendObject(entity: 0, id: id)
            for a in 0 ..< 8 {
                let attribute = AttributeIndex(a)
                guard let value = value(a, i) else { continue }
                guard ahead else {
                    loader.setAttribute(object, attribute, value.converted(to: schema.infos[0][attribute].type))
                    continue
                }
                switch value {
                case .integer(let n): loader.setInteger(object, attribute, n)
                case .boolean(let flag): loader.setBoolean(object, attribute, flag)
                case .double(let d): loader.setDouble(object, attribute, d)
                case .date(let date): loader.setDouble(object, attribute, date.timeIntervalSinceReferenceDate)
                case .string(let s): Array(s.utf8).withUnsafeBytes { loader.setBytes(object, attribute, $0) }
                case .binary(let data): data.withUnsafeBytes { loader.setBytes(object, attribute, $0) }
                default: loader.setAttribute(object, attribute, value)
                }
            }
            if let previous {
                loader.setRelated(object, 1, previous)
                loader.setRelated(previous, 0, [object])
            }
            previous = object
            if i % 1_000 == 0 {
                let tagID = ObjectID(UInt64(2 * i + 103))
                let tag = ahead ? loader.appendObjectAhead(entity: 1, id: tagID) : loader.appendObject(entity: 1, id: tagID)
                loader.setAttribute(tag, 0, .string("tag \(i)"))
            }
        }
        return loader
    }

    @Test(arguments: [1, 17, 40_000])
    func rowsAppendedAheadGiveTheGraphOfRowByRowAppends(items: Int) throws {
        let expected = try Self.load(items: items, ahead: false).finish()
        let graph = try Self.load(items: items, ahead: true).finish()
        #expect(graph.objectCount == expected.objectCount)
        #expect(graph.nextID == expected.nextID)
        for entity in [EntityIndex(0), EntityIndex(1)] {
            let table = graph.tables[entity]
            for column in table.attributes { #expect(column.count == table.rowCount, "no row appended ahead is left") }
            for column in table.relationships { #expect(column.count == table.rowCount) }
            #expect(table.ids == expected.tables[entity].ids)
            for row in 0 ..< table.rowCount {
                let object = ManagedObject(entity: entity, row: row)
                for a in graph.schema.infos[entity].attributeIndices
                where graph.attributeValue(of: object, a) != expected.attributeValue(of: object, a) {
                    Issue.record("row \(row) attribute \(a): \(String(describing: graph.attributeValue(of: object, a)))")
                    return
                }
            }
        }
        for row in 0 ..< graph.tables[0].rowCount {
            let object = ManagedObject(entity: 0, row: row)
            guard graph.relatedObject(of: object, 1) == expected.relatedObject(of: object, 1),
                graph.relatedObjects(of: object, 0) == expected.relatedObjects(of: object, 0)
            else {
                Issue.record("row \(row) has other relationships")
                return
            }
        }
        #expect(graph.attributeValue(of: ManagedObject(entity: 0, row: 0), 0) == nil, "a nil value stays nil")
        #expect(graph.attributeValue(of: ManagedObject(entity: 0, row: 0), 4) == .string(""), "an empty string is not nil")
    }

    @Test func rowsAppendedAheadReportTheSameInconsistencies() throws {
        func failure(ahead: Bool) throws -> EngineError? {
            var loader = GraphLoader(schema: try Self.schema())
            let append = { (loader: inout GraphLoader, id: UInt64) in
                ahead ? loader.appendObjectAhead(entity: 0, id: ObjectID(id)) : loader.appendObject(entity: 0, id: ObjectID(id))
            }
            let root = append(&loader, 102)
            let a = append(&loader, 103)
            let b = append(&loader, 104)
            loader.setRelated(root, 0, [a])
            loader.setRelated(a, 1, root)
            loader.setRelated(b, 1, root)
            return #expect(throws: EngineError.self) { try loader.finish() }
        }
        let expected = try #require(try failure(ahead: false))
        #expect(try failure(ahead: true)?.description == expected.description)
        #expect(expected.code == .inconsistentGraph)
    }

    @Test func typedSettersFillAColumnThatStoresNothingYet() {
        var integers = AttributeColumn.allNil(type: .integer64, rows: 3)
        integers.setInteger(1, 42)
        var flags = AttributeColumn.allNil(type: .boolean, rows: 3)
        flags.setBoolean(2, true)
        var dates = AttributeColumn.allNil(type: .date, rows: 3)
        dates.setDouble(0, 86_400)
        var texts = AttributeColumn.allNil(type: .string, rows: 3)
        Array("hi".utf8).withUnsafeBytes { texts.setBytes(1, $0) }
        #expect((0 ..< 3).map(integers.value) == [nil, .integer(42), nil])
        #expect((0 ..< 3).map(flags.value) == [nil, nil, .boolean(true)])
        #expect((0 ..< 3).map(dates.value) == [.date(Date(timeIntervalSinceReferenceDate: 86_400)), nil, nil])
        #expect((0 ..< 3).map(texts.value) == [nil, .string("hi"), nil])
    }

    @Test func columnsDropRowsFromTheEndAcrossPages() {
        let size = PagedArray<Int>.pageSize
        var array = PagedArray(0 ..< 2 * size + 5)
        array.removeLast(size + 10)
        #expect(array.count == size - 5)
        #expect(array.pageCount == 1)
        #expect(array.last == size - 6)
        array.append(7)
        #expect(array[size - 5] == 7)
        var column = AttributeColumn(type: .string)
        column.appendNils(size + 3)
        Array("kept".utf8).withUnsafeBytes { column.setBytes(2, $0) }
        column.removeLast(size)
        #expect(column.count == 3)
        #expect(column.value(2) == .string("kept"))
        var untouched = AttributeColumn.allNil(type: .double, rows: 10)
        untouched.appendNils(5)
        untouched.removeLast(12)
        #expect(untouched.count == 3 && untouched.nilCount == 3)
    }
}
