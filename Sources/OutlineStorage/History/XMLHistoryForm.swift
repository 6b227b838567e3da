import Foundation

/// How a Core Data XML store keeps the undo history: under ``StoreMetadata/undoHistoryKey`` in
/// the metadata dictionary of `<databaseInfo>`, which Core Data reads and writes back without
/// interpreting it. The value is a dictionary: `format` (integer 1), `size` (the record's bytes)
/// and `zlib`, an array of `<data>` pieces that together are the record deflated (RFC 1950).
///
/// Pieces hold at most ``HistoryLimits/xmlPieceBytes`` each, so that no single value comes near
/// the XML reader's limit for one value.
enum XMLHistoryForm {
    static let formatKey = "format"
    static let sizeKey = "size"
    static let zlibKey = "zlib"

    /// The metadata value holding `record` (an encoded history).
    static func value(for record: [UInt8]) -> PropertyListValue {
        let compressed = record.withUnsafeBytes { Zlib.deflate($0, level: BinaryStore.defaultCompressionLevel) }
        var pieces: [PropertyListValue] = []
        var start = 0
        repeat {
            let end = min(start + HistoryLimits.xmlPieceBytes, compressed.count)
            pieces.append(.data(Data(compressed[start ..< end])))
            start = end
        } while start < compressed.count
        return .dictionary([
            (formatKey, .integer(1)),
            (sizeKey, .integer(Int64(record.count))),
            (zlibKey, .array(pieces)),
        ])
    }

    /// The encoded history a metadata value holds.
    ///
    /// - Throws: ``StorageError`` `corrupt`, `limitExceeded` or `unsupportedVersion` naming the key.
    static func record(from value: PropertyListValue, file: String) throws -> [UInt8] {
        let place = "metadata key \(StoreMetadata.undoHistoryKey)"
        func damaged(_ message: String) -> StorageError {
            StorageError(.corrupt, file: file, at: place, message, hint: HistoryCoding.damagedHint)
        }
        guard case .dictionary(let entries) = value else { throw damaged("the undo history is not a dictionary") }
        func entry(_ key: String) -> PropertyListValue? { entries.first { $0.key == key }?.value }
        guard case .integer(let format)? = entry(formatKey) else { throw damaged("the undo history has no format number") }
        guard format == 1 else {
            throw StorageError(
                .unsupportedVersion, file: file, at: place,
                "the undo history is kept in form \(format); this version reads form 1", hint: HistoryCoding.damagedHint)
        }
        guard case .integer(let declared)? = entry(sizeKey), declared >= 0 else { throw damaged("the undo history has no size") }
        guard case .array(let pieces)? = entry(zlibKey) else { throw damaged("the undo history has no zlib data") }
        var compressed: [UInt8] = []
        for piece in pieces {
            guard case .data(let bytes) = piece else { throw damaged("a piece of the undo history is not data") }
            compressed.append(contentsOf: bytes)
        }
        guard declared <= Int64(HistoryLimits.maximumBytes) else {
            throw StorageError(
                .limitExceeded, file: file, at: place,
                "the undo history declares \(declared) bytes, over the limit of \(HistoryLimits.maximumBytes)",
                hint: HistoryCoding.damagedHint)
        }
        let size = Int(declared)
        guard size <= compressed.count * BinaryFormat.maximumCompressionRatio else {
            throw StorageError(
                .limitExceeded, file: file, at: place,
                "the undo history declares \(size) bytes from \(compressed.count) compressed bytes, more than zlib can expand",
                hint: HistoryCoding.damagedHint)
        }
        var record = [UInt8](repeating: 0, count: size)
        let result = compressed.withUnsafeBytes { input in
            record.withUnsafeMutableBytes { Zlib.inflate(input, into: $0) }
        }
        guard result == .ok else { throw damaged("the undo history's zlib data does not inflate to its declared \(size) bytes") }
        return record
    }
}
