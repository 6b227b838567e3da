import Foundation

/// Parsing of the textual values of an XML store, straight from libxml2's bytes.
enum XMLValueParsing {
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// `bytes` without leading and trailing XML white space.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start ..< end])
    }

    /// The text of `bytes` for messages: decoded leniently, shortened to 40 characters, line
    /// breaks and tabs shown as `\n`, `\r`, `\t`.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let short = text.count > 40 ? text.prefix(40) + "..." : text
        var result = "\""
        for character in short {
            switch character {
            case "\n": result += "\\n"
            case "\r", "\r\n": result += character == "\r" ? "\\r" : "\\r\\n"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    /// `n` with thousands separators, for messages: `10,000,000`.
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n.magnitude))
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: i)
            i -= 3
        }
        return (n < 0 ? "-" : "") + String(digits)
    }

    /// A decimal integer with an optional sign, surrounded by optional white space.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let digits = trimmed(bytes)
        guard !digits.isEmpty else { return nil }
        var i = 0
        var negative = false
        if digits[0] == 0x2D || digits[0] == 0x2B {
            negative = digits[0] == 0x2D
            i = 1
        }
        guard i < digits.count else { return nil }
        var magnitude: UInt64 = 0
        while i < digits.count {
            let d = digits[i] &- 0x30
            guard d < 10 else { return nil }
            let (m, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (s, overflow2) = m.addingReportingOverflow(UInt64(d))
            guard !overflow1 && !overflow2 else { return nil }
            magnitude = s
            i += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// An unsigned decimal integer surrounded by optional white space.
    static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let digits = trimmed(bytes)
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let d = byte &- 0x30
            guard d < 10 else { return nil }
            let (m, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (s, overflow2) = m.addingReportingOverflow(UInt64(d))
            guard !overflow1 && !overflow2 else { return nil }
            value = s
        }
        return value
    }

    /// A floating-point number as C's `strtod` reads it (`1.5`, `-2e10`, `nan`, `inf`).
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = trimmed(bytes)
        guard !text.isEmpty, text.count <= 1100 else { return nil }
        return Double(String(decoding: text, as: UTF8.self))
    }

    /// A boolean: `1`/`0` as Core Data writes them; `YES`/`NO` and `true`/`false` are accepted.
    static func boolean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        // `0` and `1` alone are nearly every value: answered without making a string.
        if bytes.count == 1 && (bytes[0] == 0x30 || bytes[0] == 0x31) { return bytes[0] == 0x31 }
        return switch String(decoding: trimmed(bytes), as: UTF8.self) {
        case "1", "YES", "true": true
        case "0", "NO", "false": false
        default: nil
        }
    }

    /// An object id `zN`: its number.
    static func objectID(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count >= 2, bytes.count <= 21, bytes[0] == 0x7A else { return nil }
        var value: UInt64 = 0
        if bytes.count <= 20 {
            // Up to 19 digits: below 10^19, which no UInt64 arithmetic here can overflow.
            for i in 1 ..< bytes.count {
                let d = bytes[i] &- 0x30
                guard d < 10 else { return nil }
                value = value &* 10 &+ UInt64(d)
            }
            return value
        }
        for i in 1 ..< bytes.count {
            let d = bytes[i] &- 0x30
            guard d < 10 else { return nil }
            let (m, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (s, overflow2) = m.addingReportingOverflow(UInt64(d))
            guard !overflow1 && !overflow2 else { return nil }
            value = s
        }
        return value
    }

    /// Calls `body` with each white-space separated word of `bytes` (the ids of `idrefs`).
    @inline(__always)
    static func forEachWord(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        var i = 0
        let n = bytes.count
        while i < n {
            while i < n && isSpace(bytes[i]) { i += 1 }
            let start = i
            while i < n && !isSpace(bytes[i]) { i += 1 }
            if i > start { try body(UnsafeBufferPointer(rebasing: bytes[start ..< i])) }
        }
    }

    // MARK: Base64

    /// Per byte: its 6-bit value in base64, 64 for white space (skipped), 65 for `=`, 255 otherwise.
    private static let base64Values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(c)] = UInt8(i)
        }
        for c in [0x20, 0x09, 0x0A, 0x0D, 0x0C] { table[c] = 64 }
        table[0x3D] = 65
        return table
    }()

    /// Decodes base64 with white space anywhere into `output` (replacing its contents).
    ///
    /// - Returns: false when a character is not base64 or the padding is wrong.
    static func base64(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Bool {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(bytes.count / 4 * 3 + 3)
        return base64Values.withUnsafeBufferPointer { table in
            var accumulator: UInt32 = 0
            var pending = 0
            var padding = 0
            for byte in bytes {
                let v = table[Int(byte)]
                if v < 64 {
                    guard padding == 0 else { return false }
                    accumulator = accumulator << 6 | UInt32(v)
                    pending += 1
                    if pending == 4 {
                        output.append(UInt8(accumulator >> 16 & 0xFF))
                        output.append(UInt8(accumulator >> 8 & 0xFF))
                        output.append(UInt8(accumulator & 0xFF))
                        accumulator = 0
                        pending = 0
                    }
                } else if v == 64 {
                    continue
                } else if v == 65 {
                    padding += 1
                    guard padding <= 2, pending + padding <= 4 else { return false }
                } else {
                    return false
                }
            }
            switch (pending, padding) {
            case (0, 0): return true
            case (2, 2), (2, 0):
                output.append(UInt8(accumulator >> 4 & 0xFF))
                return true
            case (3, 1), (3, 0):
                output.append(UInt8(accumulator >> 10 & 0xFF))
                output.append(UInt8(accumulator >> 2 & 0xFF))
                return true
            default: return false
            }
        }
    }

    // MARK: Property-list dates

    /// An ISO 8601 date as property lists write them: `2024-03-01T12:00:00Z`.
    static func plistDate(_ text: String) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = Array(parts.utf8)
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
            bytes[16] == 0x3A, bytes[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let d = bytes[i] &- 0x30
                guard d < 10 else { return nil }
                value = value * 10 + Int(d)
            }
            return value
        }
        guard let year = number(0 ..< 4), let month = number(5 ..< 7), let day = number(8 ..< 10),
            let hour = number(11 ..< 13), let minute = number(14 ..< 16), let second = number(17 ..< 19),
            (1 ... 12).contains(month), (1 ... 31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = CivilCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day))
        return Date(timeIntervalSince1970: Double(days * CivilCalendar.secondsPerDay + Int64(hour * 3600 + minute * 60 + second)))
    }

    /// A date as property lists write them, in UTC with whole seconds and a four-digit year.
    ///
    /// Saves check dates first (``StoreLimits/isStorableDate(_:)``); a date outside the years
    /// 0 to 9999 reaching this anyway is written as the nearest one inside, never trapping.
    static func plistDateString(_ date: Date) -> String {
        let reference = date.timeIntervalSinceReferenceDate
        let clamped = reference.isNaN ? 0 : min(max(reference, StoreLimits.earliestDate), StoreLimits.endOfDates - 1)
        let seconds = Int64(clamped.rounded(.down)) + CivilCalendar.secondsFrom1970To2001
        let (days, secondOfDay) = CivilCalendar.split(secondsSince1970: seconds)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }
}
