// gesturectl-hotpath: the per-frame cost of playing and of recording, on the
// host, without the VM (issue 9). Not a test: it prints figures and never
// fails on them. Run through benchmarks/hotpath.sh (release build, and the
// valgrind/strace counts beside it).
//
//   gesturectl-hotpath play [SECONDS]         the player at 1 kHz in real time
//   gesturectl-hotpath play-nowait [FRAMES] [RUNS]  the player's path without its waits
//   gesturectl-hotpath record [SECONDS]       the recorder at 1 kHz in real time
//   gesturectl-hotpath record-burst [FRAMES]  the recorder fed as fast as a pipe takes it
//   gesturectl-hotpath play-memory [MINUTES]  the memory one play of the ten-finger
//                                             gesture holds (60: the one-hour one)
//   gesturectl-hotpath daemon [PLAYS]         the daemon's request → first frame
//   gesturectl-hotpath daemon-taps [PLAYS]    inline taps only, silent (for callgrind)
//                                             written, beside its `version` round trip
//
// The frames are the timing benchmark's ten-1k case: ten fingers swiping up
// at 1,000 frames a second (22 events a frame), built by the player's own
// FrameBuilder for its touchscreen. The player writes them through
// InputSystem's write path (the one a uinput device uses) to /dev/null; the
// recorder reads them, as `struct input_event`s, from a pipe that a writer
// thread fills at 1 kHz (or as fast as it can), through a RecordingSession
// and its StrokeRecorder, as `gesturectl record` does.
//
// CPU time is the measured thread's own (CLOCK_THREAD_CPUTIME_ID, user and
// system), so the writer thread of the recording cases is not counted.

import Glibc
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import GestureSynth
import InputSystem
import OperatingSystem
import Synchronization

func threadCPUNanoseconds() -> Int64 {
    var now = timespec()
    _ = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

func fail(_ message: String) -> Never {
    FileDescriptor.standardError.writeAllIgnoringErrors(Array("gesturectl-hotpath: \(message)\n".utf8))
    exit(1)
}

func say(_ line: String) { print(line) }

/// The first `count` frames of ten fingers swiping up for 10 s at 1 kHz, as
/// the ten-1k case (10,002 frames). Always the whole gesture is made, so
/// that runs of different lengths differ only in what is measured.
func tenFingerFrames(count: Int) -> (frames: [InputFrame], profile: VirtualDeviceProfile) {
    do {
        let gesture = try GestureSynthesizer.swipe(
            direction: .up, fingers: 10, distanceMM: 120, duration: Microseconds(10_000_000),
            options: SynthOptions(sampleRateHz: 1_000, spacingMM: 12))
        let profile = VirtualDeviceProfile.touchscreen(fitting: gesture.device)
        let frames = try FrameBuilder(target: profile).frames(for: gesture)
        return (Array(frames.prefix(count)), profile)
    } catch {
        fail("cannot make the ten-finger frames: \(error)")
    }
}

// MARK: Playing

/// The write path of a uinput device, against /dev/null.
final class NullDeviceSink: FrameSink {
    let descriptor: FileDescriptor
    init() {
        do { descriptor = try FileDescriptor.open("/dev/null", .writeOnly) } catch { fail("/dev/null: \(error)") }
    }
    deinit { descriptor.close() }
    func write(_ frame: InputFrame) throws {
        try InputEvent.write(frame.events, to: descriptor, path: "/dev/null")
    }
}

/// The system clock without its waits: every deadline is reached at once.
struct NoWaitClock: PlaybackClock {
    let system = SystemClock()
    func now() -> Microseconds { system.now() }
    func wait(until deadline: Microseconds, cancellation: CancellationSignal) throws(SystemError) -> WaitResult {
        cancellation.isCancelled ? .cancelled : .reached
    }
}

/// Plays on a dedicated thread set up as the player's (timer slack 1 ns),
/// reporting progress to a handle as `Player.start` does; returns the
/// playing thread's CPU time and the result.
func timedPlay(_ frames: [InputFrame], profile: VirtualDeviceProfile, clock: any PlaybackClock)
    -> (cpu: Int64, wall: Int64, result: PlaybackResult)
{
    let outcome = Mutex<(Int64, Int64, PlaybackResult)?>(nil)
    let done = CancellationSignal()
    let handle = PlaybackHandle()
    // Something observes the progress, as the play command's status line does.
    let observed = Atomic<Int>(0)
    handle.observeProgress { progress in observed.store(progress.framesWritten, ordering: .relaxed) }
    do {
        try DedicatedThread.start(Player.threadOptions) {
            let sink = NullDeviceSink()
            let player = Player(clock: clock)
            let cpuStart = threadCPUNanoseconds()
            let wallStart = monotonicNanoseconds()
            let result = player.play(
                frames, on: sink, state: DeviceState(description: profile.description),
                cancellation: handle.cancellation, progress: { handle.report($0) })
            let cpu = threadCPUNanoseconds() - cpuStart
            let wall = monotonicNanoseconds() - wallStart
            outcome.withLock { $0 = (cpu, wall, result) }
            done.cancel()
        }
        _ = try Poll.waitReadable(try done.fileDescriptor, timeoutMilliseconds: nil)
    } catch {
        fail("cannot play: \(error)")
    }
    guard let (cpu, wall, result) = outcome.withLock({ $0 }) else { fail("the play did not finish") }
    if case .completed = result.outcome {} else { fail("the play did not complete: \(result.outcome)") }
    return (cpu, wall, result)
}

func format(_ value: Double, _ digits: Int = 2) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}

func benchmarkPlay(seconds: Int) {
    let (frames, profile) = tenFingerFrames(count: seconds * 1_000 + 2)
    let events = frames.reduce(0) { $0 + $1.events.count }
    let (cpu, wall, result) = timedPlay(frames, profile: profile, clock: SystemClock())
    say(
        "play 1 kHz real time: \(frames.count) frames (\(events) events) in \(format(Double(wall) / 1e9)) s; "
            + "playing thread's CPU \(format(Double(cpu) / Double(frames.count) / 1_000)) µs a frame; "
            + "lateness p99 \(format(Double(result.lateness.percentile99.rawValue) / 1_000, 3)) ms, "
            + "max \(format(Double(result.lateness.maximum.rawValue) / 1_000, 3)) ms")
}

func benchmarkPlayNoWait(frameCount: Int, runs: Int) {
    let (frames, profile) = tenFingerFrames(count: frameCount)
    var best = Int64.max
    for _ in 0..<runs {
        let (cpu, _, _) = timedPlay(frames, profile: profile, clock: NoWaitClock())
        best = min(best, cpu)
    }
    say(
        "play without waits: \(frames.count) frames; best of \(runs): "
            + "\(format(Double(best) / Double(frames.count), 0)) ns CPU a frame")
}

// MARK: Recording

/// The frames as the kernel's `struct input_event`s (24 bytes each on
/// x86-64: seconds, microseconds, type, code, value), stamped `time`.
func kernelBytes(of frame: InputFrame, time: Int64, into bytes: inout [UInt8]) {
    func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    for event in frame.events {
        put(Int64(time / 1_000_000))
        put(Int64(time % 1_000_000))
        put(event.type.rawValue)
        put(event.code.rawValue)
        put(event.value)
    }
}

/// An event source over a pipe of `struct input_event`s, read as libevdev
/// 1.13 reads an evdev node: one `read()` of as many as its queue holds
/// when the queue is empty (and one more that finds nothing before
/// `wouldBlock`), then the queued events one call at a time.
final class PipeEventSource: EventSource {
    let fileDescriptor: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 24 * 256)
    private var start = 0
    private var end = 0

    init(readEnd: FileDescriptor) { fileDescriptor = readEnd }

    func nextEvent() throws(SystemError) -> ReadOutcome {
        if start == end {
            (start, end) = (0, 0)
            let offset = end
            let result: Result<Int?, SystemError> = buffer.withUnsafeMutableBytes { raw in
                do throws(SystemError) {
                    return .success(try fileDescriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...])))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .failure(let error): throw error
            case .success(nil): break
            case .success(0?):
                if start == end {
                    throw SystemError(call: "read", errorNumber: ErrorNumber.noSuchDevice, kind: .deviceVanished, detail: "the writer closed the pipe")
                }
            case .success(let count?): end += count
            }
        }
        guard end - start >= 24 else { return .wouldBlock }
        let event = buffer.withUnsafeBytes { raw -> InputEvent in
            let seconds = raw.loadUnaligned(fromByteOffset: start, as: Int64.self)
            let microseconds = raw.loadUnaligned(fromByteOffset: start + 8, as: Int64.self)
            return InputEvent(
                time: Microseconds(seconds * 1_000_000 + microseconds),
                type: EventType(rawValue: raw.loadUnaligned(fromByteOffset: start + 16, as: UInt16.self)),
                code: EventCode(rawValue: raw.loadUnaligned(fromByteOffset: start + 18, as: UInt16.self)),
                value: raw.loadUnaligned(fromByteOffset: start + 20, as: Int32.self))
        }
        start += 24
        return .event(event)
    }
}

/// A writer thread sends `frames` into the pipe, one `write()` per frame,
/// every millisecond (`paced`) or as fast as the pipe takes them, then
/// closes it; the calling thread records them.
func timedRecording(_ frames: [InputFrame], profile: VirtualDeviceProfile, paced: Bool)
    -> (cpu: Int64, wall: Int64, samples: Int, strokes: Int, reason: RecordingStopReason)
{
    let ends: (read: FileDescriptor, write: FileDescriptor)
    do { ends = try FileDescriptor.pipe() } catch { fail("pipe: \(error)") }
    do { try ends.read.setNonBlocking() } catch { fail("fcntl: \(error)") }
    let source = PipeEventSource(readEnd: ends.read)
    let session: RecordingSession
    do {
        session = try RecordingSession(
            source: source, recorder: try StrokeRecorder(device: profile.description),
            details: RecordingDetails(name: "hotpath"), cancellation: CancellationSignal())
    } catch {
        fail("cannot start the recording: \(error)")
    }
    // A live status line, as `gesturectl record` shows.
    session.statusHandler = { _ in }
    let writer = ends.write
    let frameCopy = frames
    do {
        try DedicatedThread.start(ThreadOptions(name: "hotpath-writer", timerSlackNanoseconds: 1)) {
            var bytes: [UInt8] = []
            var next = monotonicNanoseconds() + 10_000_000
            for frame in frameCopy {
                if paced {
                    var deadline = timespec(tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
                    _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil)
                    next += 1_000_000
                }
                bytes.removeAll(keepingCapacity: true)
                kernelBytes(of: frame, time: monotonicNanoseconds() / 1_000, into: &bytes)
                do { try writer.writeAll(bytes) } catch { fail("writing the pipe: \(error)") }
            }
            writer.close()
        }
    } catch {
        fail("cannot start the writer: \(error)")
    }
    let cpuStart = threadCPUNanoseconds()
    let wallStart = monotonicNanoseconds()
    let result = session.run()
    let cpu = threadCPUNanoseconds() - cpuStart
    let wall = monotonicNanoseconds() - wallStart
    ends.read.close()
    guard case .success(let recorded) = result.gesture else { fail("nothing recorded: \(result.gesture)") }
    let samples = recorded.gesture.strokes.reduce(0) { $0 + $1.samples.count }
    return (cpu, wall, samples, recorded.gesture.strokes.count, result.stopReason)
}

func benchmarkRecord(frameCount: Int, paced: Bool) {
    let (frames, profile) = tenFingerFrames(count: frameCount)
    let events = frames.reduce(0) { $0 + $1.events.count }
    let (cpu, wall, samples, strokes, reason) = timedRecording(
        frames, profile: profile, paced: paced)
    say(
        "record \(paced ? "1 kHz real time" : "burst"): "
            + "\(frames.count) frames (\(events) events) in \(format(Double(wall) / 1e9)) s; "
            + "recording thread's CPU \(format(Double(cpu) / Double(frames.count) / 1_000)) µs a frame; "
            + "\(samples) samples in \(strokes) strokes; stopped: \(reason)")
}

// MARK: Memory of one play

/// The process's resident and peak resident memory (VmRSS, VmHWM), in bytes.
func residentMemory() -> (rss: Int, peak: Int) {
    let descriptor = open("/proc/self/status", O_RDONLY)
    guard descriptor >= 0 else { return (0, 0) }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 8_192)
    let count = read(descriptor, &buffer, buffer.count)
    let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    func field(_ name: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return (Int(String(digits)) ?? 0) * 1_024
        }
        return 0
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// A sink that takes every frame and keeps nothing.
final class DiscardingSink: FrameSink, Sendable {
    func write(_ frame: InputFrame) throws {}
}

/// Ten fingers circling at 120 Hz for `minutes` (the large-gesture benchmark's gesture).
func circlingGesture(minutes: Int) -> Gesture {
    let rate = 120
    let count = minutes * 60 * rate + 1
    let strokes = (0..<10).map { finger -> Stroke in
        var samples: [Sample] = []
        samples.reserveCapacity(count)
        for index in 0..<count {
            let angle = Double(index) / Double(rate) * 0.5 + Double(finger) * 0.6
            let radius = 2_000.0 + Double(finger) * 300
            samples.append(
                Sample(
                    time: Microseconds(Int64(index) * 1_000_000 / Int64(rate)),
                    x: 10_800 + Int((radius * cos(angle)).rounded()), y: 6_750 + Int((radius * sin(angle)).rounded())))
        }
        return Stroke(samples: samples)
    }
    return Gesture(name: "large", device: .synthDefault, strokes: strokes)
}

/// How much memory one play holds: the engine's play of the circling
/// gesture on a device that discards its frames, held at its start gate
/// once its frames are built, beside the size of one copy of those frames.
func benchmarkPlayMemory(minutes: Int) {
    let before = residentMemory()
    let gesture = circlingGesture(minutes: minutes)
    let withGesture = residentMemory()
    let engine = Engine(
        devices: DeviceFactory(make: { profile, _, _ in
            PlaybackSession(profile: profile, sink: DiscardingSink(), devnode: nil, linger: .zero)
        }))
    let gate: (FileDescriptor, FileDescriptor)
    do { gate = try FileDescriptor.pipe() } catch { fail("pipe: \(error)") }
    let job: PlayJob
    do {
        job = try engine.startPlay(PlayRequest(gesture: gesture, startGate: gate.0))
    } catch {
        fail("play: \(error)")
    }
    let held = residentMemory()
    // One copy of the frames: each frame's own storage and its events'.
    let frames = try! FrameBuilder(target: job.session.profile, options: PlaybackOptions()).frames(for: gesture)
    let eventBytes = frames.reduce(0) { $0 + $1.events.capacity * MemoryLayout<InputEvent>.stride + 32 }
    let oneCopy = frames.count * MemoryLayout<InputFrame>.stride + eventBytes
    job.cancel()
    _ = job.wait()
    let mib = { (bytes: Int) in format(Double(bytes) / 1_048_576) }
    say(
        "play-memory: \(minutes)-minute ten-finger gesture, \(gesture.sampleCount) samples, \(frames.count) frames; "
            + "gesture \(mib(withGesture.rss - before.rss)) MiB; one copy of the frames ≈ \(mib(oneCopy)) MiB; "
            + "the play holds \(mib(held.rss - withGesture.rss)) MiB resident "
            + "(\(format(Double(held.rss - withGesture.rss) / Double(oneCopy))) × one copy), "
            + "peak while building \(mib(held.peak - withGesture.rss)) MiB above the gesture")
}

// MARK: The daemon's request → first frame

/// A ready device's sink that notes when the first frame of each play is
/// written (the moment a uinput device's write would reach the kernel).
final class FirstWriteSink: FrameSink, Sendable {
    private let first = Mutex<Int64?>(nil)
    func write(_ frame: InputFrame) throws {
        let now = monotonicNanoseconds()
        first.withLock { if $0 == nil { $0 = now } }
    }
    /// The first write's time since the last take, and forgets it.
    func take() -> Int64? { first.withLock { value in defer { value = nil }; return value } }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}

/// The daemon's play path on this machine's own CPU: a daemon on a real
/// socket over the real engine, its ready touchscreen a session on the
/// system clock whose sink notes the first frame written. Each round sends,
/// through the CLI's DaemonClient, `version` (the round trip of a request
/// that does nothing) and then a play of the built-in tap, by name and
/// inline, each waiting for its reply; the
/// latency is from the moment the play's line is sent to its first frame.
/// The same figures as benchmarks/daemon's, without the VM's emulated CPU.
/// `tapsOnly`: only the inline taps, untimed and silent (`daemon-taps`,
/// which benchmarks/hotpath.sh runs under callgrind to count the
/// instructions one inline tap costs the daemon and the engine).
func benchmarkDaemon(plays: Int, tapsOnly: Bool = false) {
    let sink = FirstWriteSink()
    let recordings = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))
        + "/Recordings"
    let folder = "/tmp/gesturectl-hotpath-daemon-\(getpid())"
    let socketPath = folder + "/d.sock"
    let server: DaemonServer
    do {
        try FileSystem.makeDirectory(folder, permissions: 0o700)
        let engine = Engine(
            devices: DeviceFactory(
                make: { profile, _, _ in PlaybackSession(profile: profile, sink: sink, devnode: nil, linger: .zero) },
                readyProfile: { kind, _ in DaemonServer.profile(for: kind) }))
        server = try DaemonServer(
            setup: DaemonServer.Setup(
                listening: try UnixSocket.listen(at: socketPath), createdSocketPath: socketPath,
                library: GestureLibrary(userDirectory: folder + "/library", builtinDirectory: recordings),
                configuration: DaemonConfiguration(devices: [.touchscreen]), allowedGroup: nil),
            engine: engine, log: DaemonLog(journal: false, minimum: .warning), version: "hotpath")
        try server.start()
    } catch {
        fail("cannot start the daemon: \(error)")
    }
    defer {
        server.stop()
        _ = try? FileSystem.unlink(socketPath)
        _ = rmdir(folder)
    }
    let tap: JSONValue
    do {
        tap = try JSONValue.parse(try FileIO.read(path: recordings + "/tap.gesture.json", limit: 1 << 20))
    } catch {
        fail("cannot read the built-in tap: \(error)")
    }
    let client: DaemonClient
    do { client = try DaemonClient(path: socketPath) } catch { fail("cannot connect: \(error)") }
    // The client's own calls: a play's reply comes when it has played.
    func call(_ request: DaemonCall) -> Int64 {
        let sent = monotonicNanoseconds()
        do { _ = try client.call(request) } catch { fail("\(request): \(error)") }
        return sent
    }
    if tapsOnly {
        for _ in 0..<plays {
            _ = call(.play(.inline(tap), kind: "touchscreen"))
            guard sink.take() != nil else { fail("an inline play wrote nothing") }
        }
        return
    }
    var version: [Double] = [], byName: [Double] = [], inline: [Double] = []
    for round in 0..<(plays + 10) {
        let versionSent = call(.version)
        let versionMs = Double(monotonicNanoseconds() - versionSent) / 1e6
        _ = sink.take()
        let nameSent = call(.play(.name("tap"), kind: "touchscreen"))
        guard let nameFirst = sink.take() else { fail("a play by name wrote nothing") }
        let inlineSent = call(.play(.inline(tap), kind: "touchscreen"))
        guard let inlineFirst = sink.take() else { fail("an inline play wrote nothing") }
        if round < 10 { continue }  // warm-up
        version.append(versionMs)
        byName.append(Double(nameFirst - nameSent) / 1e6)
        inline.append(Double(inlineFirst - inlineSent) / 1e6)
    }
    let floor = version.sorted()
    say("daemon: \(plays) rounds on this host's CPU (ms; the VM's figures are benchmarks/daemon's)")
    say("| request | p50 | p99 | p99 − version's p99 |")
    say("|---|---:|---:|---:|")
    for (label, values) in [("`version` round trip", version), ("play by name → first frame", byName), ("play inline → first frame", inline)] {
        let sorted = values.sorted()
        say("| \(label) | \(format(percentile(sorted, 0.5), 3)) | \(format(percentile(sorted, 0.99), 3)) | "
            + "\(format(percentile(sorted, 0.99) - percentile(floor, 0.99), 3)) |")
    }
}

// MARK: Command line

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
    fail("usage: gesturectl-hotpath play|play-nowait|record|record-burst|play-memory|daemon|daemon-taps [COUNT]")
}
let count = arguments.count > 1 ? Int(arguments[1]) : nil
switch mode {
case "play": benchmarkPlay(seconds: count ?? 2)
case "play-nowait": benchmarkPlayNoWait(frameCount: count ?? 10_000, runs: arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5)
case "record": benchmarkRecord(frameCount: (count ?? 2) * 1_000 + 2, paced: true)
case "record-burst": benchmarkRecord(frameCount: count ?? 10_000, paced: false)
case "play-memory": benchmarkPlayMemory(minutes: count ?? 60)
case "daemon": benchmarkDaemon(plays: count ?? 500)
case "daemon-taps": benchmarkDaemon(plays: count ?? 20, tapsOnly: true)
default: fail("unknown mode '\(mode)'")
}
