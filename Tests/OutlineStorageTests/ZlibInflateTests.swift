import Foundation
import Testing

@testable import OutlineStorage

/// `Zlib.inflate` checks the zlib header itself and inflates the deflate data raw; it compares
/// the Adler-32 trailer only when asked (the binary body's chunks are covered by a CRC-32).
@Suite struct ZlibInflateTests {
    static let text = [UInt8]((0 ..< 50_000).map { UInt8(truncatingIfNeeded: $0 % 251 &* 7) })
    static let stream = text.withUnsafeBytes { Zlib.deflate($0, level: 6) }

    static func inflate(_ input: [UInt8], size: Int = text.count, checkingSum: Bool = true) -> (Zlib.InflateResult, [UInt8]) {
        var output = [UInt8](repeating: 0, count: size)
        let result = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { Zlib.inflate(source, into: $0, checkingSum: checkingSum) }
        }
        return (result, output)
    }

    @Test(arguments: [true, false])
    func aWholeStreamInflatesExactly(checkingSum: Bool) {
        let (result, output) = Self.inflate(Self.stream, checkingSum: checkingSum)
        #expect(result == .ok)
        #expect(output == Self.text)
    }

    @Test func aWrongAdlerSumIsInvalidOnlyWhenChecked() {
        var damaged = Self.stream
        damaged[damaged.count - 1] ^= 0x40
        #expect(Self.inflate(damaged).0 == .invalid(consumed: damaged.count - 4, reason: "incorrect data check"))
        #expect(Self.inflate(damaged, checkingSum: false).0 == .ok)
    }

    @Test(arguments: [true, false])
    func aMissingOrPartialTrailerEndsTheInput(checkingSum: Bool) {
        let short = Array(Self.stream.dropLast(2))
        #expect(Self.inflate(short, checkingSum: checkingSum).0 == .inputEnded(consumed: short.count))
    }

    @Test(arguments: [true, false])
    func bytesAfterTheTrailerAreTrailingInput(checkingSum: Bool) {
        let long = Self.stream + [1, 2, 3]
        #expect(Self.inflate(long, checkingSum: checkingSum).0 == .trailingInput(consumed: Self.stream.count))
    }

    @Test func badHeadersAreInvalidAtTheirFirstByte() {
        var method = Self.stream
        method[0] = 0x79  // method 9 (window 7): the check bits no longer fit either
        method[1] = UInt8((31 - (Int(method[0]) << 8) % 31) % 31)
        #expect(Self.inflate(method).0 == .invalid(consumed: 0, reason: "unknown compression method"))
        var check = Self.stream
        check[1] ^= 0x01
        #expect(Self.inflate(check).0 == .invalid(consumed: 0, reason: "incorrect header check"))
        var window = Self.stream
        window[0] = 0x88  // window 2^16: more than deflate allows
        window[1] = UInt8((31 - (Int(window[0]) << 8) % 31) % 31)
        #expect(Self.inflate(window).0 == .invalid(consumed: 0, reason: "invalid window size"))
        var dictionary = Self.stream
        dictionary[1] = 0x20
        dictionary[1] |= UInt8((31 - (Int(dictionary[0]) << 8 | Int(dictionary[1])) % 31) % 31)
        #expect(Self.inflate(dictionary).0 == .invalid(consumed: 2, reason: "the stream asks for a preset dictionary"))
        #expect(Self.inflate([0x78]).0 == .inputEnded(consumed: 1))
    }

    @Test func aStreamLongerOrShorterThanDeclaredIsTold() {
        let longer = Self.inflate(Self.stream, size: Self.text.count - 1).0
        guard case .streamLonger(let consumed) = longer else {
            Issue.record("a stream one byte longer than declared gave \(longer)")
            return
        }
        #expect(consumed > 2 && consumed <= Self.stream.count - 4)
        #expect(Self.inflate(Self.stream, size: Self.text.count + 1).0 == .streamShorter(produced: Self.text.count))
    }
}
