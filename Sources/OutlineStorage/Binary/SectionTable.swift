/// The section tables of the header and of the body: a count, then per section its id
/// (varint), flags (varint; bit 0 = required) and length (u64), then the payloads in order.
enum SectionTable {
    /// Reads a table and returns a cursor over each section this version knows, in table order.
    ///
    /// Unknown sections are skipped when optional and refused when required; a known section
    /// given twice, or lengths that do not add up to the bytes left, are corrupt.
    /// - Parameters:
    ///   - place: "the header" or "the body", for messages.
    ///   - name: the name of a known section id, `nil` for unknown ids.
    static func read(
        _ cursor: inout ByteCursor, place: String,
        name: (UInt64) -> String?
    ) throws -> [(id: UInt64, cursor: ByteCursor)] {
        cursor.context = "the section table of \(place)"
        let count = try cursor.readCount("the section count of \(place)", limit: 1024, minimumBytesEach: 10)
        var entries: [(id: UInt64, flags: UInt64, length: Int, at: Int)] = []
        var total = 0
        for _ in 0 ..< count {
            let at = cursor.position
            let id = try cursor.readVarint()
            let flags = try cursor.readVarint()
            let length = try cursor.readUInt64()
            guard length <= UInt64(cursor.end) else {
                throw cursor.corrupt("section \(id) of \(place) declares \(length) bytes, more than \(place) holds", at: at)
            }
            entries.append((id, flags, Int(length), at))
            total += Int(length)
        }
        guard total == cursor.remaining else {
            throw cursor.corrupt("the sections of \(place) declare \(BinaryError.byteCount(total)), but \(cursor.remaining) follow the table")
        }
        var sections: [(id: UInt64, cursor: ByteCursor)] = []
        for entry in entries {
            guard let sectionName = name(entry.id) else {
                if entry.flags & BinaryFormat.requiredFlag != 0 {
                    throw BinaryError.unsupported(
                        cursor.file, at: cursor.location(of: entry.at),
                        "\(place) has a required section \(entry.id) that this version does not know")
                }
                try cursor.skip(entry.length)
                continue
            }
            if sections.contains(where: { $0.id == entry.id }) {
                throw cursor.corrupt("\(place) has the \(sectionName) section twice", at: entry.at)
            }
            sections.append((entry.id, try cursor.subcursor(entry.length, context: "the \(sectionName) section")))
        }
        return sections
    }
}
