import Foundation

/// RFC 822 dates as OPML uses them (`created`, `dateCreated`): `Sat, 09 Apr 2007 14:57:36 GMT`.
///
/// Writing is fixed: English names, two-digit day, four-digit year, seconds, always GMT.
/// Reading is lenient: the weekday is optional (and not checked), months may be spelled out,
/// two-digit years mean 1950–2049, seconds are optional, and the zone may be `GMT`, `UT`,
/// `UTC`, `Z`, a North American zone (`EST`, `PDT`, ...), `+hhmm`/`-hh:mm`, or missing (GMT).
/// ISO 8601 (`2024-03-12T14:03:00Z`), which some apps write instead, is accepted too.
enum RFC822Date {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let zones: [String: Int] = [
        "GMT": 0, "UT": 0, "UTC": 0, "Z": 0,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    ]

    /// `date` in GMT, whole seconds (fractions are dropped).
    static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekdays[weekday]), \(two(day)) \(months[Int(month) - 1]) \(year) "
            + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// The date `text` spells, or nil.
    static func parse(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        guard !tokens.isEmpty else { return nil }
        var index = 0
        if tokens[0].first?.isLetter == true,
           weekdays.contains(where: { tokens[0].lowercased().hasPrefix($0.lowercased()) }) {
            index = 1
        }
        guard tokens.count - index >= 3 else { return iso8601(text) }
        guard let day = Int64(tokens[index]), (1 ... 31).contains(day),
              let month = months.firstIndex(where: { tokens[index + 1].lowercased().hasPrefix($0.lowercased()) }),
              var year = Int64(tokens[index + 2])
        else { return iso8601(text) }
        if tokens[index + 2].count <= 2 { year += year < 50 ? 2000 : 1900 }
        var seconds: Int64 = 0
        var offset: Int64 = 0
        if tokens.count - index >= 4 {
            let parts = tokens[index + 3].split(separator: ":").map { Int64($0) }
            guard parts.count == 2 || parts.count == 3, let hour = parts[0], let minute = parts[1],
                  (0 ... 23).contains(hour), (0 ... 59).contains(minute) else { return nil }
            let second = parts.count == 3 ? parts[2] : 0
            guard let second, (0 ... 60).contains(second) else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            if tokens.count - index >= 5 {
                guard tokens.count - index == 5, let zone = zoneOffset(tokens[index + 4]) else { return nil }
                offset = zone
            }
        }
        guard day <= daysIn(month: Int64(month + 1), year: year) else { return nil }
        let days = days(fromCivil: year, Int64(month + 1), day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + seconds - offset))
    }

    /// Seconds east of GMT for a zone token, or nil.
    private static func zoneOffset(_ token: String) -> Int64? {
        if let hours = zones[token.uppercased()] { return Int64(hours) * 3600 }
        guard let sign = token.first, sign == "+" || sign == "-" else { return nil }
        let digits = token.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let value = Int64(digits) else { return nil }
        let hours = value / 100, minutes = value % 100
        guard hours <= 23, minutes <= 59 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    private static func iso8601(_ text: String) -> Date? {
        try? Date(text.trimmingCharacters(in: .whitespaces), strategy: .iso8601)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
