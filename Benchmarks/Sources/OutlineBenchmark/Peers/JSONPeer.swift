import Foundation

/// The Codable JSON peer: Foundation's `JSONEncoder` and `JSONDecoder` over the flat array of
/// ``ItemRow``; saving writes the encoded bytes durably (as a store save does), opening reads
/// the file first.
enum JSONPeer {
    /// Encodes `rows` and writes them to `path` atomically and durably; returns the bytes written.
    @discardableResult
    static func save(_ rows: [ItemRow], to path: String) throws -> Int {
        let data = try JSONEncoder().encode(rows)
        try data.withUnsafeBytes { try PlainFile.writeAtomically($0, to: path) }
        return data.count
    }

    /// Reads `path` and decodes its rows.
    static func open(_ path: String) throws -> [ItemRow] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode([ItemRow].self, from: data)
    }
}
