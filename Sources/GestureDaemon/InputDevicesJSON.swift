import DeviceDiscovery
import GestureBindings
import GestureEngine
import GestureFormat
import GestureProtocol
import InputSystem
import OperatingSystem

/// The input devices as the protocol's `devices` reports them: the fields
/// of `gesturectl devices --json`.
enum InputDevicesJSON {
    /// Every evdev device, described.
    static func list() throws(SystemError) -> [JSONValue] { try InputDevices.list().map(describe) }

    static func describe(_ device: DeviceInfo) -> JSONValue { DeviceFacts(device).json }
}
