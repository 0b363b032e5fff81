/// Proleptic Gregorian day arithmetic on plain integers.
///
/// The schedule engine uses it to reason about local calendar days without calling `Calendar`:
/// day numbers count days since 2001-01-01 (the reference date of `Date`), so day 0 is that Monday.
enum CivilDay {
    /// Seconds in a civil day.
    static let seconds = 86_400

    /// Days from 2001-01-01 to the given year, month (1…12) and day.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        // Shift the year to start in March so February's variable length comes last.
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // 730_791 is the day count from 0000-03-01 to 2001-01-01 in this scheme.
        return era * 146_097 + dayOfEra - 730_791
    }

    /// The year, month (1…12) and day of a day number.
    static func civil(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 730_791
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// A month counted from year 0: `year * 12 + (month - 1)`.
    static func monthIndex(year: Int, month: Int) -> Int { year * 12 + month - 1 }

    static func daysInMonth(monthIndex: Int) -> Int {
        daysInMonth(year: floorDiv(monthIndex, 12), month: monthIndex - floorDiv(monthIndex, 12) * 12 + 1)
    }
}

/// Integer division rounding toward negative infinity.
@inline(__always)
func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

/// Integer division rounding toward positive infinity.
@inline(__always)
func ceilDiv(_ a: Int, _ b: Int) -> Int {
    -floorDiv(-a, b)
}
