/// Fast UTF-8 validation: eight ASCII bytes at a time, a full check of each multi-byte sequence.
///
/// Rejects what the Unicode standard calls ill-formed: stray continuation bytes, overlong
/// forms, surrogates (U+D800...U+DFFF), code points above U+10FFFF and cut-off sequences.
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        while i < count {
            if i + 8 <= count {
                let high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) & 0x8080_8080_8080_8080
                if high == 0 {
                    i += 8
                    continue
                }
                // Skip the ASCII bytes before the first byte with its high bit set.
                i += high.trailingZeroBitCount >> 3
            }
            let lead = base.load(fromByteOffset: i, as: UInt8.self)
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF  // bounds of the second byte
            switch lead {
            case 0xC2 ... 0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1 ... 0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard i + length <= count else { return false }
            let second = base.load(fromByteOffset: i + 1, as: UInt8.self)
            guard second >= low && second <= high else { return false }
            for k in 2 ..< length where base.load(fromByteOffset: i + k, as: UInt8.self) & 0xC0 != 0x80 {
                return false
            }
            i += length
        }
        return true
    }
}
