import CLibevdev

/// A libevdev device not bound to a descriptor, owned: `deinit` frees it.
final class LibevdevTemplate {
    let device: OpaquePointer

    init(_ device: OpaquePointer) { self.device = device }

    deinit { libevdev_free(device) }
}
