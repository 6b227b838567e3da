import Foundation
import Testing

@testable import OutlineStorage

/// The one day-count routine that XML store dates and OPML dates share.
@Suite struct CivilCalendarTests {
    @Test func knownDaysHaveTheirCounts() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2001, month: 1, day: 1) * CivilCalendar.secondsPerDay == CivilCalendar.secondsFrom1970To2001)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.days(year: 0, month: 1, day: 1) == -719_528)
    }

    @Test func everyFiftiethDayFromYearZeroToNineThousandNineHundredNinetyNineRoundTrips() {
        let first = CivilCalendar.days(year: 0, month: 1, day: 1)
        let last = CivilCalendar.days(year: 9999, month: 12, day: 31)
        var previous: (year: Int64, month: Int64, day: Int64)?
        for days in stride(from: first, through: last, by: 50) {
            let date = CivilCalendar.date(fromDays: days)
            #expect((1 ... 12).contains(date.month) && date.day >= 1 && date.day <= CivilCalendar.daysIn(month: date.month, year: date.year))
            #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
            if let previous { #expect((previous.year, previous.month, previous.day) < (date.year, date.month, date.day)) }
            previous = date
        }
    }

    @Test func secondsBefore1970BelongToThePreviousDay() {
        #expect(CivilCalendar.split(secondsSince1970: -1) == (-1, 86_399))
        #expect(CivilCalendar.split(secondsSince1970: 86_400) == (1, 0))
    }

    @Test func leapYearsFollowTheGregorianRule() {
        #expect(CivilCalendar.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilCalendar.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilCalendar.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilCalendar.daysIn(month: 4, year: 2023) == 30)
    }
}
