/// Calendar dates from times, with no clock and no Foundation: the one
/// days-to-civil conversion (Howard Hinnant's algorithm) that manual pages
/// (`gesturectl manpages`, `gesturectl-button --manpage`) date themselves with.
public enum CivilDate {
    /// `2026-11-30` for a time in seconds since 1970 (UTC), e.g.
    /// `SOURCE_DATE_EPOCH`; before 1970 too.
    public static func text(secondsSince1970 seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
