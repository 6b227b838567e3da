import Foundation
import Testing

@testable import OutlineEngine

/// Column storage: booleans as flags, and all-nil columns that store nothing until written.
@Suite struct AttributeColumnTests {
    static let types: [AttributeType] = [.integer16, .integer64, .boolean, .double, .date, .string, .binary, .decimal, .uuid]

    static func sample(_ type: AttributeType) -> Value {
        switch type {
        case .boolean: .boolean(true)
        case .double, .float: .double(2.5)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 86_400))
        case .string, .uri, .objectID: .string("Crème brûlée")
        case .binary, .transformable: .binary(Data([0, 1, 2]))
        case .decimal: .decimal(Decimal(string: "1.25")!)
        case .uuid: .uuid(UUID(uuidString: "8A740FD5-0D2C-4545-BB45-4E4A92910237")!)
        case .undefined: .integer(0)
        default: .integer(-7)
        }
    }

    @Test(arguments: types)
    func anAllNilColumnStoresNothingUntilAValueIsSet(_ type: AttributeType) {
        var column = AttributeColumn.allNil(type: type, rows: 1000)
        #expect(column.untouchedNilRows == 1000)
        #expect(column.count == 1000)
        #expect(column.isNil(999) && column.value(0) == nil)
        column.set(10, nil)
        column.append(nil)
        #expect(column.untouchedNilRows == 1001, "nil writes keep the column untouched")
        #expect(column.integers.isEmpty && column.flags.isEmpty && column.doubles.isEmpty && column.bytes.count == 0 && column.others.isEmpty)

        column.set(500, Self.sample(type))
        #expect(column.untouchedNilRows == 0)
        #expect(column.count == 1001)
        #expect(column.value(500) == Self.sample(type))
        #expect(column.isNil(499) && column.isNil(1000) && column.value(0) == nil)
        column.append(Self.sample(type))
        #expect(column.count == 1002 && column.value(1001) == Self.sample(type))
    }

    @Test func anAllNilColumnTakesAnAppendedValue() {
        var column = AttributeColumn.allNil(type: .string, rows: 3)
        column.append(.string("four"))
        #expect(column.count == 4)
        #expect((0 ..< 3).allSatisfy(column.isNil))
        #expect(column.value(3) == .string("four"))
    }

    @Test func booleansTakeOneByteEachAndKeepNilApart() {
        var column = AttributeColumn(type: .boolean)
        #expect(column.storage == .flag)
        column.append(.boolean(true))
        column.append(nil)
        column.append(.boolean(false))
        #expect(column.flags == [1, AttributeColumn.nilFlag, 0])
        #expect(column.value(0) == .boolean(true) && column.value(1) == nil && column.value(2) == .boolean(false))
        column.set(1, .boolean(false))
        column.set(0, nil)
        #expect(column.value(1) == .boolean(false) && column.isNil(0))
    }

    @Test(arguments: types)
    func appendingNilStoresWhatAppendingTheValueNilStores(_ type: AttributeType) {
        var byValue = AttributeColumn(type: type)
        var byNil = AttributeColumn(type: type)
        for row in 0 ..< 3 {
            let value: Value? = row == 1 ? Self.sample(type) : nil
            byValue.append(value)
            if let value { byNil.append(value) } else { byNil.appendNil() }
        }
        #expect(byNil.count == 3)
        #expect((0 ..< 3).map { byNil.value($0) } == (0 ..< 3).map { byValue.value($0) })
        #expect(byNil.isNil(0) && !byNil.isNil(1) && byNil.isNil(2))
        var untouched = AttributeColumn.allNil(type: type, rows: 2)
        untouched.appendNil()
        #expect(untouched.untouchedNilRows == 3 && untouched.count == 3, "an all-nil column stays untouched")
    }
}
