import Foundation

/// Numbers as an XML store writes them.
///
/// Dates: C's `printf("%.20f")`, as Core Data writes them, without going through a format string.
///
/// A double is `m × 2^e` with a 53-bit `m`, so its decimal expansion is exact and finite;
/// the 20 fraction digits are produced with integer arithmetic and rounded half to even on the
/// exact remainder, as glibc does. Values whose fraction needs more than 64 bits of arithmetic
/// (magnitudes under about 2^-8 that are not zero) or whose integer part exceeds 2^64, and
/// non-finite values, go through `vsnprintf` instead; dates never do.
enum XMLNumberFormatting {
    static let fractionDigits = 20

    /// Appends `value` formatted like `%.20f`.
    static func appendFixed20(_ value: Double, to output: inout XMLOutputBuffer) {
        guard value.isFinite else { return appendWithPrintf(value, to: &output) }
        let negative = value.sign == .minus
        let magnitude = value.magnitude
        let exponentBits = Int(magnitude.exponentBitPattern)
        let fractionBits = magnitude.significandBitPattern
        let significand = exponentBits == 0 ? fractionBits : fractionBits | 1 << 52
        let exponent = exponentBits == 0 ? -1074 : exponentBits - 1075

        var integerPart: UInt64
        var fraction: UInt64 = 0
        var shift = 0
        if significand == 0 {
            integerPart = 0
        } else if exponent >= 0 {
            guard exponent <= 11 else { return appendWithPrintf(value, to: &output) }
            integerPart = significand << UInt64(exponent)
        } else {
            shift = -exponent
            guard shift <= 60 else { return appendWithPrintf(value, to: &output) }
            integerPart = shift >= 64 ? 0 : significand >> UInt64(shift)
            fraction = significand & (1 << UInt64(shift) - 1)
        }

        var digits = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        withUnsafeMutableBytes(of: &digits) { digits in
            if shift > 0 {
                let mask = UInt64(1) << UInt64(shift) - 1
                for i in 0 ..< fractionDigits {
                    fraction &*= 10
                    digits[i] = UInt8(fraction >> UInt64(shift))
                    fraction &= mask
                }
                let half = UInt64(1) << UInt64(shift - 1)
                if fraction > half || (fraction == half && digits[fractionDigits - 1] & 1 == 1) {
                    var i = fractionDigits - 1
                    while i >= 0 {
                        if digits[i] == 9 {
                            digits[i] = 0
                            i -= 1
                        } else {
                            digits[i] += 1
                            break
                        }
                    }
                    if i < 0 { integerPart += 1 }
                }
            }
            if negative { output.append(0x2D) }
            output.appendDecimal(integerPart)
            output.reserve(1 + fractionDigits)
            output.appendUnchecked(0x2E)
            for i in 0 ..< fractionDigits { output.appendUnchecked(0x30 + digits[i]) }
        }
    }

    /// Formats through the C library, for the values the integer path does not cover.
    static func appendWithPrintf(_ value: Double, to output: inout XMLOutputBuffer) {
        output.append(string: printf20(value))
    }

    /// `String(format: "%.20f", value)` straight from the C library.
    static func printf20(_ value: Double) -> String {
        // The integer part of the largest double has 309 digits.
        var buffer = [CChar](repeating: 0, count: 400)
        let length = withVaList([value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.20f", arguments) }
        }
        let end = min(max(Int(length), 0), buffer.count - 1)
        return buffer[..<end].withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self) }
    }

    /// A double or float attribute or property-list real: the shortest text that reads back
    /// as the same double, without a trailing `.0` (`3.5`, `2`, `1e-05`, `nan`, `inf`).
    static func shortest(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
