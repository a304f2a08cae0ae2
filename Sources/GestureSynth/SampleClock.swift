import GestureModel

/// The sample times of a stroke lasting `duration` at `rateHz` samples per
/// second: sample i at round(i × 1 000 000 / rate) µs for every such time
/// before `duration`, then one last sample exactly at `duration`.
///
/// At 120 Hz a 250 ms stroke gives 0, 8333, 16667, …, 241667, 250000 and an
/// 80 ms stroke gives 0, 8333, …, 75000, 80000. Integer arithmetic (halves
/// round up), so the times are the same on every machine.
///
/// Callers validate first: `duration` > 0 and at most 60 s, `rateHz` 1…1000,
/// which bounds the count at 60 001 and keeps every product far from overflow.
func sampleTimes(duration: Microseconds, rateHz: Int) -> [Microseconds] {
    let rate = Int64(rateHz)
    var times: [Microseconds] = []
    times.reserveCapacity(Int(duration.rawValue * rate / 1_000_000) + 2)
    var index: Int64 = 0
    while true {
        let time = (2 * index * 1_000_000 + rate) / (2 * rate)
        if time >= duration.rawValue { break }
        times.append(Microseconds(time))
        index += 1
    }
    times.append(duration)
    return times
}
