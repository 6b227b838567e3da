import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Every truncation and every single-bit flip of each small binary document of `Fixtures/`,
/// with the outcomes counted and printed: the body's checksum catches every flip in the body,
/// the header's every flip in the header, and the rest is refused by what it breaks.
extension BinaryDamageTests {
    static let sweepFixtures = [
        "Binary/small-outline.outline", "Binary/other-model.outline", "Documents/outline-v1.outline",
        "Documents/outline-v2.outline", "Samples/groceries.outline",
    ]

    @Test(arguments: sweepFixtures)
    func everyTruncationAndBitFlipIsCaught(_ fixture: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Fixtures.folder.appending(path: fixture)))
        let expected = snapshot(try BinaryStore.read(bytes, schema: nil, file: "whole.outline").0)
        let bodyStart = try BinaryCrafting.bodyOffset(bytes)

        var truncations: [StorageError.Code: Int] = [:]
        for length in 0 ..< bytes.count {
            let error = #expect(throws: StorageError.self) {
                try BinaryStore.read(Array(bytes[..<length]), schema: nil, file: "cut.outline")
            }
            if let error { truncations[error.code, default: 0] += 1 }
            #expect(error?.code == .truncated, "\(fixture) cut to \(length): \(String(describing: error))")
        }

        var prelude: [String: Int] = [:]
        var header: [String: Int] = [:]
        var body: [String: Int] = [:]
        for index in bytes.indices {
            for bit in 0 ..< 8 {
                var damaged = bytes
                damaged[index] ^= 1 << bit
                let outcome: String
                do {
                    let (graph, _) = try BinaryStore.read(damaged, schema: nil, file: "flip.outline")
                    #expect(snapshot(graph) == expected, "\(fixture) byte \(index) bit \(bit) loaded differently")
                    outcome = "loaded unchanged"
                } catch let error as StorageError {
                    #expect(error.location?.hasPrefix("byte ") == true, "\(fixture) byte \(index) bit \(bit): \(error)")
                    outcome = error.code.rawValue
                }
                if index >= bodyStart {
                    #expect(outcome == StorageError.Code.checksumMismatch.rawValue, "\(fixture) byte \(index) bit \(bit): \(outcome)")
                    body[outcome, default: 0] += 1
                } else if index >= 20 {
                    header[outcome, default: 0] += 1
                } else {
                    prelude[outcome, default: 0] += 1
                }
            }
        }
        // Past the 20-byte prelude, the header's checksum catches every flip; in the prelude, the
        // magic, version and header size are checked first (Docs/BinaryFormat.md, "Prelude").
        #expect(Array(header.keys) == [StorageError.Code.checksumMismatch.rawValue], "\(header)")
        let preludeCodes: [StorageError.Code] = [.checksumMismatch, .unknownFormat, .unsupportedVersion, .truncated, .limitExceeded]
        #expect(prelude.keys.allSatisfy { key in preludeCodes.contains { $0.rawValue == key } }, "\(prelude)")
        let format = { (counts: [String: Int]) in counts.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") }
        print(
            """
            binary sweeps of \(fixture) (\(bytes.count) bytes, body from byte \(bodyStart)):
              truncations: \(format(truncations.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value }))
              bit flips in the prelude: \(format(prelude))
              bit flips in the header: \(format(header))
              bit flips in the body: \(format(body))
            """)
    }
}
