import Foundation

/// The binary encoding of ``PropertyListValue``s in the custom metadata section: a tag byte,
/// then the value. Strings and data are length-prefixed; containers are counted.
enum PropertyListCoding {
    enum Tag: UInt8 {
        case string = 1
        case integer = 2
        case real = 3
        case falseValue = 4
        case trueValue = 5
        case date = 6
        case data = 7
        case array = 8
        case dictionary = 9
    }

    /// How deep arrays and dictionaries may nest in a file.
    static let maximumDepth = 32

    static func write(_ value: PropertyListValue, to writer: inout ByteWriter) {
        switch value {
        case .string(let s):
            writer.writeByte(Tag.string.rawValue)
            writer.writeString(s)
        case .integer(let i):
            writer.writeByte(Tag.integer.rawValue)
            writer.writeSignedVarint(i)
        case .real(let d):
            writer.writeByte(Tag.real.rawValue)
            writer.writeDouble(d)
        case .boolean(let b):
            writer.writeByte(b ? Tag.trueValue.rawValue : Tag.falseValue.rawValue)
        case .date(let d):
            writer.writeByte(Tag.date.rawValue)
            writer.writeDouble(d.timeIntervalSinceReferenceDate)
        case .data(let d):
            writer.writeByte(Tag.data.rawValue)
            writer.writeVarint(d.count)
            writer.writeBytes(d)
        case .array(let items):
            writer.writeByte(Tag.array.rawValue)
            writer.writeVarint(items.count)
            for item in items { write(item, to: &writer) }
        case .dictionary(let entries):
            writer.writeByte(Tag.dictionary.rawValue)
            writer.writeVarint(entries.count)
            for (key, item) in entries {
                writer.writeString(key)
                write(item, to: &writer)
            }
        }
    }

    static func read(from cursor: inout ByteCursor, key: String, depth: Int = 0) throws -> PropertyListValue {
        guard depth < maximumDepth else {
            throw cursor.limit("custom metadata \"\(key)\" nests deeper than \(maximumDepth) levels")
        }
        let start = cursor.position
        let rawTag = try cursor.readByte()
        guard let tag = Tag(rawValue: rawTag) else {
            throw cursor.corrupt("custom metadata \"\(key)\" has an unknown value type \(rawTag)", at: start)
        }
        switch tag {
        case .string: return .string(try cursor.readString("custom metadata \"\(key)\"", limit: Int(Int32.max)))
        case .integer: return .integer(try cursor.readSignedVarint())
        case .real: return .real(try cursor.readDouble())
        case .falseValue: return .boolean(false)
        case .trueValue: return .boolean(true)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: try cursor.readDouble()))
        case .data:
            let count = try cursor.readCount("the length of custom metadata \"\(key)\"", limit: Int(Int32.max), minimumBytesEach: 1)
            return .data(Data(try cursor.readBytes(count)))
        case .array:
            let count = try cursor.readCount("the item count of custom metadata \"\(key)\"", limit: Int(Int32.max), minimumBytesEach: 1)
            var items: [PropertyListValue] = []
            items.reserveCapacity(count)
            for _ in 0 ..< count { items.append(try read(from: &cursor, key: key, depth: depth + 1)) }
            return .array(items)
        case .dictionary:
            let count = try cursor.readCount("the entry count of custom metadata \"\(key)\"", limit: Int(Int32.max), minimumBytesEach: 2)
            var entries: [(key: String, value: PropertyListValue)] = []
            entries.reserveCapacity(count)
            for _ in 0 ..< count {
                let name = try cursor.readString("a key in custom metadata \"\(key)\"")
                entries.append((name, try read(from: &cursor, key: "\(key).\(name)", depth: depth + 1)))
            }
            return .dictionary(entries)
        }
    }
}
