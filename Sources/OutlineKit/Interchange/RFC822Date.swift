import Foundation
import OutlineStorage

/// RFC 822 dates as OPML uses them (`created`, `dateCreated`): `Sat, 09 Apr 2007 14:57:36 GMT`.
///
/// Writing is fixed: English names, two-digit day, four-digit year (`0005` for the year 5, so
/// that it never reads back as 2005), seconds, always GMT; only dates in the years 0 to 9999
/// can be written (see ``StoreLimits``), others give nil.
/// Reading is lenient: the weekday is optional (and not checked), months may be spelled out,
/// two-digit years mean 1950–2049 (three or four digits are the year itself), seconds are
/// optional, and the zone may be `GMT`, `UT`, `UTC`, `Z`, a North American zone (`EST`,
/// `PDT`, ...), `+hhmm`/`-hh:mm`, or missing (GMT). ISO 8601 (`2024-03-12T14:03:00Z`), which
/// some apps write instead, is accepted too. Years outside 0 to 9999 are not dates.
/// Both directions count days in the proleptic Gregorian calendar, with checked arithmetic.
enum RFC822Date {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let zones: [String: Int] = [
        "GMT": 0, "UT": 0, "UTC": 0, "Z": 0,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    ]
    /// The years a date may have.
    static let years: ClosedRange<Int64> = 0 ... 9999

    /// `date` in GMT, whole seconds (fractions are dropped); nil for a date that is not a
    /// finite time in the years 0 to 9999.
    static func format(_ date: Date) -> String? {
        let reference = date.timeIntervalSinceReferenceDate
        guard StoreLimits.isStorableDate(reference), let seconds = Int64(exactly: reference.rounded(.down)) else { return nil }
        let (days, time) = CivilCalendar.split(secondsSince1970: seconds + CivilCalendar.secondsFrom1970To2001)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        let weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let four = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(weekdays[weekday]), \(two(day)) \(months[Int(month) - 1]) \(four) "
            + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// The date `text` spells, or nil.
    static func parse(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        guard !tokens.isEmpty else { return nil }
        var index = 0
        if tokens[0].first?.isLetter == true,
            weekdays.contains(where: { tokens[0].lowercased().hasPrefix($0.lowercased()) })
        {
            index = 1
        }
        guard tokens.count - index >= 3 else { return iso8601(text) }
        guard let day = number(tokens[index]), (1 ... 31).contains(day),
            let month = months.firstIndex(where: { tokens[index + 1].lowercased().hasPrefix($0.lowercased()) }),
            var year = number(tokens[index + 2])
        else { return iso8601(text) }
        if tokens[index + 2].count <= 2 { year += year < 50 ? 2000 : 1900 }
        guard years.contains(year) else { return nil }
        var seconds: Int64 = 0
        var offset: Int64 = 0
        if tokens.count - index >= 4 {
            let parts = tokens[index + 3].split(separator: ":").map { number(String($0)) }
            guard parts.count == 2 || parts.count == 3, let hour = parts[0], let minute = parts[1],
                (0 ... 23).contains(hour), (0 ... 59).contains(minute)
            else { return nil }
            let second = parts.count == 3 ? parts[2] : 0
            guard let second, (0 ... 60).contains(second) else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            if tokens.count - index >= 5 {
                guard tokens.count - index == 5, let zone = zoneOffset(tokens[index + 4]) else { return nil }
                offset = zone
            }
        }
        return date(year: year, month: Int64(month + 1), day: day, seconds: seconds - offset)
    }

    /// A number of at most 18 ASCII digits (so that no arithmetic on it can overflow), or nil.
    private static func number(_ token: String) -> Int64? {
        guard !token.isEmpty, token.utf8.count <= 18, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(token)
    }

    /// The date of a checked calendar day plus `seconds` (which may run past the day), or nil
    /// when the day does not exist or the result is outside the years 0 to 9999.
    private static func date(year: Int64, month: Int64, day: Int64, seconds: Int64) -> Date? {
        guard years.contains(year), (1 ... 12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year) else { return nil }
        let reference = Double(
            CivilCalendar.days(year: year, month: month, day: day) * CivilCalendar.secondsPerDay + seconds
                - CivilCalendar.secondsFrom1970To2001)
        return StoreLimits.isStorableDate(reference) ? Date(timeIntervalSinceReferenceDate: reference) : nil
    }

    /// Seconds east of GMT for a zone token, or nil.
    private static func zoneOffset(_ token: String) -> Int64? {
        if let hours = zones[token.uppercased()] { return Int64(hours) * 3600 }
        guard let sign = token.first, sign == "+" || sign == "-" else { return nil }
        let digits = token.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int64(digits) else { return nil }
        let hours = value / 100
        let minutes = value % 100
        guard hours <= 23, minutes <= 59 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// `YYYY-MM-DD`, then optionally `T` (or a space) and `hh:mm`, `:ss` and a fraction
    /// (dropped), and a zone `Z` or `±hh:mm`/`±hhmm`/`±hh` (GMT when missing).
    private static func iso8601(_ text: String) -> Date? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var i = 0
        func digits(_ count: Int) -> Int64? {
            guard i + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[i ..< i + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            i += count
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), skip(0x2D), let month = digits(2), skip(0x2D), let day = digits(2) else { return nil }
        var seconds: Int64 = 0
        if i < bytes.count && (bytes[i] == 0x54 || bytes[i] == 0x20) {
            i += 1
            guard let hour = digits(2), hour < 24, skip(0x3A), let minute = digits(2), minute < 60 else { return nil }
            seconds = hour * 3600 + minute * 60
            if skip(0x3A) {
                guard let second = digits(2), second <= 60 else { return nil }
                seconds += second
                if skip(0x2E) || skip(0x2C) {
                    guard digits(1) != nil else { return nil }
                    while digits(1) != nil {}
                }
            }
        }
        if i < bytes.count {
            if skip(0x5A) {
                // Z: GMT.
            } else if bytes[i] == 0x2B || bytes[i] == 0x2D {
                let sign: Int64 = bytes[i] == 0x2D ? -1 : 1
                i += 1
                guard let hours = digits(2), hours <= 23 else { return nil }
                _ = skip(0x3A)
                let minutes = i < bytes.count ? digits(2) : 0
                guard let minutes, minutes <= 59 else { return nil }
                seconds -= sign * (hours * 3600 + minutes * 60)
            }
            guard i == bytes.count else { return nil }
        }
        return date(year: year, month: month, day: day, seconds: seconds)
    }
}
