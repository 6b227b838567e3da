/// Day arithmetic in the proleptic Gregorian calendar, in UTC, the one place dates are turned
/// into calendar days and back (property-list dates of XML stores, RFC 822 dates of OPML).
///
/// Days count from 1970-01-01 (Howard Hinnant's days-from-civil algorithm). Callers keep years
/// within ``StoreLimits``' date range, so no step here can overflow `Int64`.
package enum CivilCalendar {
    /// Seconds between 1970-01-01 and 2001-01-01, the reference date of `Date`.
    package static let secondsFrom1970To2001: Int64 = 978_307_200
    /// Seconds in a day.
    package static let secondsPerDay: Int64 = 86_400

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    package static func date(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    /// Whole days since 1970-01-01 and the second within that day, for seconds since 1970
    /// (rounded towards the past, also before 1970).
    package static func split(secondsSince1970 seconds: Int64) -> (days: Int64, secondOfDay: Int64) {
        let days = seconds >= 0 ? seconds / secondsPerDay : (seconds - (secondsPerDay - 1)) / secondsPerDay
        return (days, seconds - days * secondsPerDay)
    }

    /// The number of days in `month` of `year`.
    package static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
