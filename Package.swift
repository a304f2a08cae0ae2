// swift-tools-version:6.0
import PackageDescription

// Targets are split by job: a pure-Swift model and format with no Linux
// imports, editing operations, synthesis, pictures, the on-disk library, a
// small declarative command layer, the commands themselves, and a thin
// executable.
let package = Package(
    name: "gesturectl",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "gesturectl", targets: ["gesturectl"]),
        .library(name: "GestureModel", targets: ["GestureModel"]),
        .library(name: "GestureFormat", targets: ["GestureFormat"]),
        .library(name: "GestureEditing", targets: ["GestureEditing"]),
    ],
    targets: [
        // The timeline model: gestures, strokes, samples, device geometry.
        // It uses libm (rounding) but no Foundation.
        .target(name: "GestureModel", linkerSettings: [.linkedLibrary("m")]),
        // The versioned text format (reader, writer, validation errors).
        .target(name: "GestureFormat", dependencies: ["GestureModel"]),
        // merge, fingers, transforms.
        .target(name: "GestureEditing", dependencies: ["GestureModel"]),
        // Authoring gestures without a device.
        .target(name: "GestureSynth", dependencies: ["GestureModel"]),
        // describe, SVG, terminal preview.
        .target(name: "GestureRender", dependencies: ["GestureModel"]),
        // Named gestures on disk, atomic writes.
        .target(name: "GestureLibrary", dependencies: ["GestureModel", "GestureFormat"]),
        // A small declarative command-line layer (no outside dependencies).
        .target(name: "CommandKit"),
        // The gesturectl commands, over the libraries above.
        .target(
            name: "GesturectlCommands",
            dependencies: [
                "GestureModel", "GestureFormat", "GestureEditing", "GestureSynth",
                "GestureRender", "GestureLibrary", "CommandKit", "InputSystem", "DeviceDiscovery",
                "GesturePlayback", "GestureRecording", "GestureInterop",
            ]
        ),
        .executableTarget(name: "gesturectl", dependencies: ["GesturectlCommands"]),

        // C libraries for real devices; only InputSystem imports them.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // evdev reading, uinput devices and udev discovery behind a Swift-only API.
        .target(name: "InputSystem", dependencies: ["GestureModel", "CLibevdev", "CLibudev"]),
        // Which devices exist, what they are, and which one --device means.
        .target(name: "DeviceDiscovery", dependencies: ["InputSystem"]),
        // Gestures to evdev frames, virtual device profiles, scheduling, the player.
        .target(name: "GesturePlayback", dependencies: ["GestureModel", "InputSystem"]),
        // Evdev events to strokes: the recorder's state machine.
        .target(name: "GestureRecording", dependencies: ["GestureModel", "InputSystem", "GestureEditing"]),
        // evemu and libinput-record text formats, in and out.
        .target(name: "GestureInterop", dependencies: ["GestureModel", "InputSystem"]),

        .testTarget(name: "GestureModelTests", dependencies: ["GestureModel"]),
        .testTarget(name: "GestureFormatTests", dependencies: ["GestureFormat", "GestureModel"]),
        .testTarget(name: "GestureEditingTests", dependencies: ["GestureEditing", "GestureModel"]),
        .testTarget(name: "GestureSynthTests", dependencies: ["GestureSynth", "GestureModel"]),
        .testTarget(name: "GestureRenderTests", dependencies: ["GestureRender", "GestureModel"]),
        .testTarget(name: "GestureLibraryTests", dependencies: ["GestureLibrary", "GestureModel", "GestureFormat"]),
        .testTarget(name: "CommandKitTests", dependencies: ["CommandKit"]),
        .testTarget(name: "InputSystemTests", dependencies: ["InputSystem", "GestureModel"]),
        .testTarget(name: "DeviceDiscoveryTests", dependencies: ["DeviceDiscovery", "InputSystem"]),
        .testTarget(name: "GesturePlaybackTests", dependencies: ["GesturePlayback", "InputSystem", "GestureModel"]),
        .testTarget(name: "GestureRecordingTests", dependencies: ["GestureRecording", "InputSystem", "GestureModel"]),
        .testTarget(name: "GestureInteropTests", dependencies: ["GestureInterop", "InputSystem", "GestureModel"]),
        .testTarget(
            name: "GesturectlCommandsTests",
            dependencies: ["GesturectlCommands", "GestureModel", "GestureFormat"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
