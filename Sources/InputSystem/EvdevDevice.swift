import CLibevdev
import Glibc
import OperatingSystem

/// An open evdev node (`/dev/input/eventN`): libevdev describes it, and
/// this type reads its events itself.
///
/// Events are read raw (`read(2)`, many at a time), not through
/// `libevdev_next_event`, for one reason: after `SYN_DROPPED`, libevdev
/// discards every frame the kernel still holds before it resynchronises;
/// this reader keeps them and starts them from the state they were written
/// against (see ``DropRecovery``). It keeps its own ``EvdevState`` of what
/// it has passed on, which ``slotValue(slot:code:)`` and friends report.
///
/// The device has one owner; `deinit` frees libevdev's state and closes the
/// descriptor. It is not thread-safe: read it from one thread or task.
/// The descriptor is non-blocking: wait for it to become readable (poll)
/// and call ``nextEvent()`` until it returns ``ReadOutcome/wouldBlock``.
public final class EvdevDevice {
    /// The node this device was opened from.
    public let path: String
    /// The open descriptor, to wait on with `poll`; owned by this object.
    public let fileDescriptor: FileDescriptor
    private let device: OpaquePointer
    /// Whether a `SYN_DROPPED` resync is being passed on: between
    /// ``ReadOutcome/resyncNeeded(_:)`` and ``ReadOutcome/resyncDone``.
    public private(set) var isResyncing = false
    /// The number of slots (`libevdev_get_num_slots`); 0 without slots.
    public let slotCount: Int
    /// What has been passed on so far.
    private var state: EvdevState
    /// The codes whose state the kernel keeps, read after a drop.
    private let slotCodes: [EventCode]
    private let absoluteCodes: [EventCode]
    private let hasKeys: Bool
    /// Raw events read but not yet passed on: `readBuffer[readIndex..<readCount]`.
    private var readBuffer: [input_event]
    private var readIndex = 0
    private var readCount = 0
    /// Outcomes of a drop's recovery still to hand out, from `pendingIndex`.
    private var pending: [ReadOutcome] = []
    private var pendingIndex = 0

    /// Events read from the kernel at once: a ten-finger frame is ~40.
    private static let readBatch = 256
    /// How often the state is read again when events arrived while it was
    /// being read (see ``recover(from:)``).
    private static let stateRereads = 3

    /// The major number of the kernel's input nodes (`INPUT_MAJOR`): evdev,
    /// joystick and mouse nodes are all character devices with it.
    public static let inputMajor: UInt32 = 13

    /// Opens `path` as an input node and nothing else (issue 36: a daemon
    /// asked to open any path told which files exist, resolved another
    /// user's descriptors, and took a member's pty as its controlling
    /// terminal): not through a symbolic link (`O_NOFOLLOW`; callers
    /// resolve links first), never as a controlling terminal
    /// (`O_NOCTTY`), non-blocking (a FIFO does not hold the open), and
    /// `fstat` must show a character device of the input major before
    /// anything reads it.
    /// - Throws: ``SystemError`` about `.inputDevice`; a file that is there
    ///   but no input node is `.notFound` (ENODEV, "not an input device").
    public static func openInputNode(_ path: String) throws(SystemError) -> FileDescriptor {
        let descriptor: FileDescriptor
        do throws(SystemError) {
            descriptor = try FileDescriptor.open(path, [.readOnly, .nonBlocking, .noFollow, .noControllingTerminal])
        } catch {
            // A link where a node was expected (ELOOP) is no input node either.
            if error.errorNumber == ELOOP {
                throw SystemError(call: "open", path: path, errorNumber: ErrorNumber.noSuchDevice, kind: .notFound, detail: "not an input device")
                    .about(.inputDevice)
            }
            throw error.about(.inputDevice)
        }
        let status: FileStatus
        do throws(SystemError) {
            status = try descriptor.status(path: path)
        } catch {
            descriptor.close()
            throw error.about(.inputDevice)
        }
        guard status.type == .characterDevice, status.representedMajor == inputMajor else {
            descriptor.close()
            throw SystemError(call: "open", path: path, errorNumber: ErrorNumber.noSuchDevice, kind: .notFound, detail: "not an input device")
                .about(.inputDevice)
        }
        return descriptor
    }

    /// Opens `path` (``openInputNode(_:)``: O_RDONLY | O_NONBLOCK |
    /// O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, an input node), binds
    /// libevdev to it (`libevdev_new_from_fd`) and switches its timestamps
    /// to CLOCK_MONOTONIC (`libevdev_set_clock_id`, i.e. `EVIOCSCLOCKID`).
    ///
    /// - Throws: ``SystemError`` with kind `.permissionDenied` (EACCES),
    ///   `.notFound` (ENOENT, ENODEV), or `.other`, e.g. ENOTTY from
    ///   `libevdev_new_from_fd` when the node is not an evdev device.
    public init(path: String) throws(SystemError) {
        self.path = path
        let descriptor = try Self.openInputNode(path)
        let device: OpaquePointer
        do throws(SystemError) {
            var opened: OpaquePointer?
            try Syscall.checkNegativeErrno(
                libevdev_new_from_fd(descriptor.rawValue, &opened), call: "libevdev_new_from_fd", path: path)
            guard let opened else { throw SystemError(call: "libevdev_new_from_fd", path: path, errorNumber: ENOMEM) }
            do throws(SystemError) {
                try Syscall.checkNegativeErrno(
                    libevdev_set_clock_id(opened, CLOCK_MONOTONIC), call: "libevdev_set_clock_id", path: path,
                    deviceIsOpen: true)
            } catch {
                libevdev_free(opened)
                throw error
            }
            device = opened
        } catch {
            descriptor.close()
            throw error
        }
        let slotCount = max(0, Int(libevdev_get_num_slots(device)))
        let has = { (type: Int32, code: UInt16) in libevdev_has_event_code(device, UInt32(type), UInt32(code)) == 1 }
        let slotCodes = slotCount > 0 ? EvdevState.slotCodes.filter { has(EV_ABS, $0) }.map(EventCode.init(rawValue:)) : []
        let absoluteCodes = (0..<UInt16(EvdevState.absoluteCodeCount)).filter {
            has(EV_ABS, $0) && !(slotCount > 0 && ($0 == UInt16(ABS_MT_SLOT) || EvdevState.slotCodes.contains($0)))
        }.map(EventCode.init(rawValue:))
        let hasKeys = libevdev_has_event_type(device, UInt32(EV_KEY)) == 1
        do throws(SystemError) {
            state = try Self.readKernelState(
                of: descriptor, path: path, slotCount: slotCount, slotCodes: slotCodes, absoluteCodes: absoluteCodes,
                hasKeys: hasKeys)
        } catch {
            libevdev_free(device)
            descriptor.close()
            throw error
        }
        self.device = device
        self.fileDescriptor = descriptor
        self.slotCount = slotCount
        self.slotCodes = slotCodes
        self.absoluteCodes = absoluteCodes
        self.hasKeys = hasKeys
        readBuffer = Array(repeating: input_event(), count: Self.readBatch)
    }

    deinit {
        libevdev_free(device)
        fileDescriptor.close()
    }

    /// The device's capabilities as they are now.
    public var description: InputDeviceDescription { InputDeviceDescription(libevdev: device) }

    /// Takes the device for this reader alone (`libevdev_grab`, i.e.
    /// `EVIOCGRAB`): no other reader (compositor, X server) sees its events.
    /// - Throws: ``SystemError``; EBUSY when another process holds the grab.
    public func grab() throws(SystemError) {
        try Syscall.checkNegativeErrno(
            libevdev_grab(device, LIBEVDEV_GRAB), call: "libevdev_grab", path: path, deviceIsOpen: true)
    }

    /// Releases a ``grab()`` (`libevdev_grab` with LIBEVDEV_UNGRAB).
    public func ungrab() throws(SystemError) {
        try Syscall.checkNegativeErrno(
            libevdev_grab(device, LIBEVDEV_UNGRAB), call: "libevdev_grab", path: path, deviceIsOpen: true)
    }

    /// Reads the next event.
    ///
    /// After ``ReadOutcome/resyncNeeded(_:)`` come ``ReadOutcome/resyncEvent(_:)``
    /// values, ending in a `SYN_REPORT`, then ``ReadOutcome/resyncDone``;
    /// then the frames the kernel kept after the drop, as normal events.
    ///
    /// - Throws: ``SystemError`` with kind `.deviceVanished` when the device
    ///   was unplugged or destroyed (ENODEV); any other read error.
    public func nextEvent() throws(SystemError) -> ReadOutcome {
        if pendingIndex < pending.count {
            let outcome = pending[pendingIndex]
            pendingIndex += 1
            if pendingIndex == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
            }
            switch outcome {
            case .event(let event), .resyncEvent(let event): state.apply(event)
            case .resyncNeeded: isResyncing = true
            case .resyncDone: isResyncing = false
            case .wouldBlock: break
            }
            return outcome
        }
        guard let event = try nextRawEvent() else { return .wouldBlock }
        if event.isSynchronizationDropped { return try recover(from: event) }
        state.apply(event)
        return .event(event)
    }

    /// Whether events already read from the kernel (a batch, or the frames
    /// kept after a drop) wait to be passed on: then ``nextEvent()`` has
    /// more though the descriptor may not be readable.
    public var hasBufferedEvents: Bool { pendingIndex < pending.count || readIndex < readCount }

    /// The next event from the kernel, reading a batch when none is left;
    /// `nil` when none is waiting.
    private func nextRawEvent() throws(SystemError) -> InputEvent? {
        if readIndex == readCount {
            let size = MemoryLayout<input_event>.stride
            let path = path
            let descriptor = fileDescriptor
            // withUnsafeMutableBytes does not forward typed throws: carry the result out.
            let outcome: Result<Int?, SystemError> = readBuffer.withUnsafeMutableBytes { buffer in
                do throws(SystemError) {
                    return .success(try descriptor.read(into: buffer, path: path, deviceIsOpen: true))
                } catch {
                    return .failure(error)
                }
            }
            guard let bytes = try outcome.get(), bytes > 0 else { return nil }
            guard bytes % size == 0 else {
                throw SystemError(call: "read", path: path, errorNumber: EIO,
                                  detail: "\(bytes) bytes is not a whole number of events")
            }
            readIndex = 0
            readCount = bytes / size
        }
        defer { readIndex += 1 }
        return InputEvent(readBuffer[readIndex])
    }

    /// Answers a `SYN_DROPPED`: skips the frame it cut, reads the frames
    /// queued after it and then the device's state, and queues the outcomes
    /// that bring a reader from what it was told to where those frames
    /// start (see ``DropRecovery``), then the frames. Drops the kernel
    /// queued meanwhile are passed on as drops of their own.
    private func recover(from drop: InputEvent) throws(SystemError) -> ReadOutcome {
        var drops = [drop]
        var cutFrame: [InputEvent] = []
        var queued: [InputEvent] = []
        var inCutFrame = true
        func take(_ event: InputEvent) {
            if event.isSynchronizationDropped {
                drops.append(event)
                cutFrame = []
                queued = []
                inCutFrame = true
            } else if inCutFrame {
                cutFrame.append(event)
                inCutFrame = !event.isSynchronizationReport
            } else {
                queued.append(event)
            }
        }
        while let event = try nextRawEvent() { take(event) }
        var now = try readKernelState()
        // Events that arrived while the state was read are in it but not
        // in `queued`: take them too and read the state again.
        for _ in 0..<Self.stateRereads {
            let before = drops.count + cutFrame.count + queued.count
            while let event = try nextRawEvent() { take(event) }
            guard drops.count + cutFrame.count + queued.count != before else { break }
            now = try readKernelState()
        }
        // The state the kept frames start from is the state at the end of
        // the cut frame. (A kept frame not ended yet, which the kernel's
        // whole-frame reads allow only in theory, is passed on as it is;
        // its end follows with the next read.)
        let time = cutFrame.last?.time ?? drops[drops.count - 1].time
        let start: EvdevState
        if let known = DropRecovery.stateBefore(queued: queued, previous: state, cutFrame: cutFrame, now: now) {
            start = known
        } else {
            start = now
            queued = []
        }
        // Each further drop ends the one before with nothing to resync.
        for extra in drops.dropFirst() { pending += [.resyncDone, .resyncNeeded(extra)] }
        pending += state.difference(to: start, time: time).map(ReadOutcome.resyncEvent)
        pending.append(.resyncEvent(.synchronizationReport(time: time)))
        pending.append(.resyncDone)
        pending += queued.map(ReadOutcome.event)
        isResyncing = true
        return .resyncNeeded(drop)
    }

    /// The device's state now, from the kernel (`EVIOCGMTSLOTS` per slot
    /// code, `EVIOCGABS`, `EVIOCGKEY`).
    private func readKernelState() throws(SystemError) -> EvdevState {
        try Self.readKernelState(
            of: fileDescriptor, path: path, slotCount: slotCount, slotCodes: slotCodes, absoluteCodes: absoluteCodes,
            hasKeys: hasKeys)
    }

    /// ``readKernelState()`` before the device is made (at opening).
    private static func readKernelState(
        of descriptor: FileDescriptor, path: String, slotCount: Int, slotCodes: [EventCode], absoluteCodes: [EventCode],
        hasKeys: Bool
    ) throws(SystemError) -> EvdevState {
        var kernel = EvdevState(slotCount: slotCount)
        let fd = descriptor.rawValue
        func ioctl(_ request: String, _ body: () -> Int32) throws(SystemError) {
            // No retry on EINTR: these requests do not sleep.
            try Syscall.minusOne("ioctl(\(request))", path: path, deviceIsOpen: true, retryOnInterrupt: false, body)
        }
        if slotCount > 0 {
            var values = [Int32](repeating: 0, count: slotCount + 1)
            for code in slotCodes {
                values[0] = Int32(code.rawValue)
                try ioctl("EVIOCGMTSLOTS") { gesturectl_evdev_get_mt_slots(fd, &values, UInt32(slotCount)) }
                for slot in 0..<slotCount { kernel.setSlotValue(values[slot + 1], slot: slot, code: code) }
            }
            var info = input_absinfo()
            try ioctl("EVIOCGABS") { gesturectl_evdev_get_abs(fd, UInt32(ABS_MT_SLOT), &info) }
            kernel.currentSlot = info.value
        }
        for code in absoluteCodes {
            var info = input_absinfo()
            try ioctl("EVIOCGABS") { gesturectl_evdev_get_abs(fd, UInt32(code.rawValue), &info) }
            kernel.setAbsoluteValue(info.value, code: code)
        }
        if hasKeys {
            var bits = [UInt8](repeating: 0, count: (EvdevState.keyCodeCount + 7) / 8)
            try ioctl("EVIOCGKEY") { gesturectl_evdev_get_keys(fd, &bits, UInt32(bits.count)) }
            for (index, byte) in bits.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    kernel.setKey(EventCode(rawValue: UInt16(index * 8 + bit)), down: true)
                }
            }
        }
        return kernel
    }

    /// The slot selected by the last `ABS_MT_SLOT` passed on; `nil` without slots.
    public var currentSlot: Int? {
        slotCount > 0 && state.currentSlot >= 0 ? Int(state.currentSlot) : nil
    }

    /// The last value passed on of an `ABS_MT_*` code in `slot`, e.g. the
    /// tracking id (-1 when no contact) or position; `nil` when the slot or
    /// code does not exist. After a resync this is the device's real state.
    public func slotValue(slot: Int, code: EventCode) -> Int32? {
        guard slotCodes.contains(code) else { return nil }
        return state.slotValue(slot: slot, code: code)
    }

    /// The last value passed on of a non-slot code, e.g. `BTN_TOUCH` or
    /// `ABS_X`; `nil` when the device lacks it.
    public func value(type: EventType, code: EventCode) -> Int32? {
        guard libevdev_has_event_code(device, UInt32(type.rawValue), UInt32(code.rawValue)) == 1 else { return nil }
        switch type {
        case .absolute: return state.absoluteValue(code)
        case .key: return state.isKeyDown(code).map { $0 ? 1 : 0 }
        default: return nil
        }
    }
}
