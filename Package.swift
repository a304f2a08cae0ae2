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
        .executable(name: "gesturectl-button", targets: ["gesturectl-button"]),
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
        .target(name: "GestureLibrary", dependencies: ["GestureModel", "GestureFormat", "OperatingSystem"]),
        // A small declarative command-line layer; GestureModel only for
        // DisplayText, the one escaping of text shown to people.
        .target(name: "CommandKit", dependencies: ["GestureModel", "OperatingSystem"]),
        // The gesturectl commands: parse, call the engine or a library, print.
        .target(
            name: "GesturectlCommands",
            dependencies: [
                "GestureModel", "GestureFormat", "GestureEditing", "GestureSynth",
                "GestureRender", "GestureLibrary", "CommandKit", "InputSystem", "DeviceDiscovery",
                "GesturePlayback", "GestureRecording", "GestureInterop", "GestureEngine", "GestureDaemon", "GestureProtocol", "GestureBindings", "OperatingSystem",
                "GestureAssist", "HIDOutput",
            ]
        ),
        .executableTarget(
            name: "gesturectl", dependencies: ["GesturectlCommands"],
            // Bind every symbol at load (-z now), not at its first call: a
            // play's first frame must not pay for lazy binding (issue 9).
            linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now"])]),

        // The per-frame cost of playing and recording on the host (issue 9):
        // benchmarks/hotpath.sh runs it; no test or product depends on it.
        .executableTarget(
            name: "gesturectl-hotpath",
            dependencies: [
                "GestureModel", "GestureSynth", "GesturePlayback", "GestureRecording", "GestureEngine", "InputSystem",
                "OperatingSystem", "GestureDaemon", "GestureProtocol", "GestureBindings", "GestureFormat", "GestureLibrary",
            ],
            path: "benchmarks/hotpath"),

        // The door to the operating system: file descriptors, one syscall
        // funnel and error type, poll, timers, eventfd, signals, threads and
        // child processes. Every module that touches the OS goes through it.
        .target(name: "OperatingSystem", dependencies: ["CSystemShim"]),
        // The Linux calls Swift's Glibc module does not import (timerfd,
        // eventfd, signalfd, prctl, pthread_setname_np, posix_spawn attributes);
        // only OperatingSystem imports it.
        .target(name: "CSystemShim"),


        // C libraries for real devices; only InputSystem imports them.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // evdev reading, uinput devices and udev discovery behind a Swift-only API.
        .target(name: "InputSystem", dependencies: ["GestureModel", "OperatingSystem", "CLibevdev", "CLibudev"]),
        // Which devices exist, what they are, and which one --device means;
        // their facts as `devices --json` and the protocol's `devices` write them.
        .target(name: "DeviceDiscovery", dependencies: ["GestureModel", "GestureFormat", "InputSystem", "OperatingSystem"]),
        // Gestures to evdev frames, virtual device profiles, scheduling, the player.
        .target(name: "GesturePlayback", dependencies: ["GestureModel", "InputSystem", "OperatingSystem"]),
        // Evdev events to strokes: the recorder's state machine.
        .target(name: "GestureRecording", dependencies: ["GestureModel", "InputSystem", "OperatingSystem"]),
        // evemu and libinput-record text formats, in and out.
        .target(name: "GestureInterop", dependencies: ["GestureModel", "GestureFormat", "InputSystem", "OperatingSystem"]),
        // HID outputs (issue 11): report descriptors made from a device's
        // geometry, frames to HID reports, /dev/uhid and USB gadgets (configfs,
        // /dev/hidgN).
        .target(
            name: "HIDOutput", dependencies: ["GestureModel", "InputSystem", "OperatingSystem", "GesturePlayback"]),
        // The engine under every front end: devices kept across plays, jobs
        // (play, record, import, watch) with one handle type, signals as events.
        .target(
            name: "GestureEngine",
            dependencies: [
                "GestureModel", "GestureEditing", "InputSystem", "OperatingSystem", "DeviceDiscovery",
                "GesturePlayback", "GestureRecording", "GestureInterop", "HIDOutput",
            ]
        ),
        // The daemon's protocol (docs/PROTOCOL.md): its requests, results,
        // events and errors as types, and the client side, for every front
        // end (the CLI, the on-screen button, tests) without the daemon.
        .target(
            name: "GestureProtocol",
            dependencies: ["GestureModel", "GestureFormat", "OperatingSystem"]
        ),
        // The daemon's custom actions over the engine: its configuration
        // (daemon.json), the bindings (model, bindings.json, trigger watches,
        // what a press does), the assist runs (menu, create flow) and the log
        // they write; the daemon maps requests to calls into it.
        .target(
            name: "GestureBindings",
            dependencies: [
                "GestureModel", "GestureFormat", "GestureLibrary", "InputSystem", "OperatingSystem", "GesturePlayback",
                "GestureRecording", "GestureEngine", "GestureAssist", "GestureProtocol",
            ]
        ),
        // The daemon for test rigs and switch users: a Unix socket server over
        // the engine (docs/PROTOCOL.md).
        .target(
            name: "GestureDaemon",
            dependencies: [
                "GestureModel", "GestureFormat", "GestureLibrary", "GestureRender", "InputSystem", "OperatingSystem",
                "DeviceDiscovery", "GesturePlayback", "GestureRecording", "GestureEngine", "GestureAssist", "GestureProtocol",
                "GestureBindings", "DaemonTransport",
            ]
        ),
        // The daemon's socket server: its clients, their buffers and
        // per-user budgets, and the lanes requests wait in for workers (no
        // engine: a transport for NDJSON requests and replies).
        .target(
            name: "DaemonTransport",
            dependencies: ["GestureFormat", "GestureProtocol", "GestureBindings", "OperatingSystem"]
        ),
        // AssistiveTouch for switch users: the create flow and the menu of
        // actions, by keys or by one scanning switch (a front end over the engine).
        .target(
            name: "GestureAssist",
            dependencies: [
                "GestureModel", "GestureFormat", "GestureRender", "GestureLibrary", "InputSystem", "OperatingSystem",
                "GesturePlayback", "GestureRecording", "GestureEngine", "GestureMenu",
            ]
        ),
        // The menu of actions' model and its file, menu.json (pure Swift, no
        // engine): one model for the terminal menu, the daemon's menu and
        // the on-screen button.
        .target(name: "GestureMenu", dependencies: ["GestureModel", "GestureFormat", "GestureLibrary", "GestureEditing"]),
        // The on-screen button (issue 38). Its state machine, position file
        // and command line in pure Swift, testable without a display; GTK 3
        // and gtk-layer-shell only in CGtk, which only the button's executable
        // imports (gesturectl and the daemon link no GTK).
        .target(name: "ButtonModel", dependencies: ["GestureModel", "GestureFormat", "GestureMenu", "GestureEditing", "GestureRender"]),
        .systemLibrary(
            name: "CGtk", pkgConfig: "gtk+-3.0 gtk-layer-shell-0",
            providers: [.apt(["libgtk-3-dev", "libgtk-layer-shell-dev"])]),
        .executableTarget(
            name: "gesturectl-button",
            dependencies: ["CGtk", "ButtonModel", "OperatingSystem", "GestureModel", "GestureFormat", "GestureProtocol"]),
        // Test doubles, shared device fixtures and helpers; only test targets use it.
        .target(
            name: "TestSupport",
            dependencies: [
                "GestureModel", "InputSystem", "OperatingSystem", "GesturePlayback", "GestureRecording", "CommandKit",
            ],
            path: "Tests/TestSupport"
        ),
        // The daemon under test, shared by the daemon's tests and the
        // commands' tests through the daemon: a daemon on a real socket over
        // the real engine with test doubles, its switches and a raw connection.
        .target(
            name: "DaemonTestSupport",
            dependencies: [
                "GestureDaemon", "GestureProtocol", "GestureBindings", "DeviceDiscovery", "GestureEngine", "GestureFormat",
                "GestureLibrary", "GestureModel", "GesturePlayback", "GestureRecording", "InputSystem", "OperatingSystem",
                "TestSupport",
            ],
            path: "Tests/DaemonTestSupport"
        ),

        .testTarget(name: "ButtonModelTests", dependencies: ["ButtonModel", "GestureMenu", "GestureModel", "GestureSynth", "GestureFormat"]),
        .testTarget(name: "GestureModelTests", dependencies: ["GestureModel"]),
        .testTarget(name: "GestureFormatTests", dependencies: ["GestureFormat", "GestureModel", "TestSupport"]),
        .testTarget(name: "GestureEditingTests", dependencies: ["GestureEditing", "GestureModel"]),
        .testTarget(name: "GestureSynthTests", dependencies: ["GestureSynth", "GestureModel"]),
        .testTarget(name: "GestureRenderTests", dependencies: ["GestureRender", "GestureModel", "TestSupport"]),
        .testTarget(
            name: "GestureLibraryTests",
            dependencies: ["GestureLibrary", "GestureModel", "GestureFormat", "OperatingSystem", "TestSupport"]),
        .testTarget(name: "CommandKitTests", dependencies: ["CommandKit", "TestSupport"]),
        .testTarget(name: "OperatingSystemTests", dependencies: ["OperatingSystem", "TestSupport"]),
        .testTarget(name: "InputSystemTests", dependencies: ["InputSystem", "GestureModel", "OperatingSystem", "TestSupport"]),
        .testTarget(
            name: "DeviceDiscoveryTests", dependencies: ["DeviceDiscovery", "GestureFormat", "GestureModel", "InputSystem", "TestSupport"]),
        .testTarget(
            name: "GesturePlaybackTests",
            dependencies: ["GesturePlayback", "InputSystem", "GestureModel", "OperatingSystem", "TestSupport"]),
        .testTarget(
            name: "GestureRecordingTests",
            dependencies: [
                "GestureRecording", "InputSystem", "GestureModel", "OperatingSystem", "GestureEngine", "DeviceDiscovery",
                "TestSupport",
            ]),
        .testTarget(
            name: "GestureDaemonTests",
            dependencies: [
                "GestureDaemon", "GestureProtocol", "GestureBindings", "DaemonTransport", "DaemonTestSupport", "DeviceDiscovery", "GestureEngine", "GestureFormat", "GestureLibrary", "GestureModel", "GesturePlayback",
                "GestureSynth", "InputSystem", "OperatingSystem", "TestSupport", "GestureRecording", "GestureAssist",
            ],
            // The wire's golden transcript, read by WireGoldenTests from the source tree.
            exclude: ["Golden"]),
        .testTarget(
            name: "GestureAssistTests",
            dependencies: [
                "GestureAssist", "GestureEngine", "GestureModel", "GestureRecording", "GestureSynth", "InputSystem",
                "OperatingSystem", "TestSupport", "GesturePlayback", "DeviceDiscovery", "GestureLibrary", "GestureMenu",
            ]),
        .testTarget(
            name: "GestureEngineTests",
            dependencies: [
                "GestureEngine", "DeviceDiscovery", "GestureModel", "GesturePlayback", "GestureRecording", "GestureSynth", "InputSystem",
                "OperatingSystem", "TestSupport", "HIDOutput",
            ]),
        .testTarget(
            name: "HIDOutputTests",
            dependencies: ["HIDOutput", "GestureModel", "InputSystem", "OperatingSystem", "GesturePlayback", "TestSupport"]),
        .testTarget(
            name: "GestureInteropTests", dependencies: ["GestureInterop", "InputSystem", "GestureModel", "TestSupport"]),
        .testTarget(
            name: "GesturectlCommandsTests",
            dependencies: [
                "GesturectlCommands", "GestureModel", "GestureFormat", "OperatingSystem", "TestSupport", "DaemonTestSupport", "GestureDaemon", "GestureProtocol", "GestureBindings",
                "GestureEngine", "GestureLibrary", "GestureRecording", "InputSystem", "DeviceDiscovery",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// No module uses Regex: without the implicit `import _StringProcessing` the
// executable does not load libswift_StringProcessing and
// libswift_RegexParser, whose ~780 symbol bindings every start paid for
// (issue 9: start-up under emulation). Test targets keep the import.
for target in package.targets where [.regular, .executable].contains(target.type) && target.name != "CSystemShim" {
    target.swiftSettings = (target.swiftSettings ?? [])
        + [.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])]
}
