import Foundation
import TestSupport

/// The real peers, used to check that our files are what they write and
/// read: evemu's own library (libevemu) and `libinput replay`'s own loader.
enum PeerTools {
    static let evemuLibrary = ["/usr/lib/x86_64-linux-gnu/libevemu.so.3", "/usr/lib/aarch64-linux-gnu/libevemu.so.3",
                               "/usr/lib64/libevemu.so.3", "/usr/lib/libevemu.so.3"]
        .first { FileManager.default.fileExists(atPath: $0) }
    static let compiler = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let replayScript = "/usr/libexec/libinput/libinput-replay"
    /// The system Python, which has python3-yaml and python3-libevdev
    /// (a pyenv Python on PATH may not).
    static let python = "/usr/bin/python3"

    static let evemuAvailable = evemuLibrary != nil && compiler != nil
        && FileManager.default.fileExists(atPath: "/usr/include/linux/input.h")
    static let replayAvailable = FileManager.default.fileExists(atPath: replayScript)
        && (try? ProcessRunner.run(python, ["-c", "import yaml, libevdev"]).status) == 0

    static let evemuSkipReason = "SKIPPED LOUDLY: libevemu or a C compiler is missing (apt-get install libevemu3 gcc linux-libc-dev)"
    static let replaySkipReason = "SKIPPED LOUDLY: libinput replay or its Python modules are missing (apt-get install libinput-tools python3-yaml python3-libevdev)"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A C program that reads an evemu file with libevemu (`evemu_read`,
    /// `evemu_read_event`, as evemu-device and evemu-play do) and writes it
    /// back with libevemu (`evemu_write`, `evemu_write_event`, as
    /// evemu-describe and evemu-record do).
    static let evemuRewriterSource = """
        #include <stdio.h>
        #include <linux/input.h>
        struct evemu_device;
        struct evemu_device *evemu_new(const char *name);
        int evemu_read(struct evemu_device *dev, FILE *fp);
        int evemu_write(const struct evemu_device *dev, FILE *fp);
        int evemu_read_event(FILE *fp, struct input_event *ev);
        int evemu_write_event(FILE *fp, const struct input_event *ev);
        int main(int argc, char **argv) {
            if (argc != 2) return 2;
            FILE *fp = fopen(argv[1], "r");
            if (!fp) return 2;
            struct evemu_device *dev = evemu_new(NULL);
            if (!dev || evemu_read(dev, fp) <= 0) return 3;
            evemu_write(dev, stdout);
            fputs("################################\\n#      Waiting for events      #\\n################################\\n", stdout);
            struct input_event ev;
            while (evemu_read_event(fp, &ev) > 0) evemu_write_event(stdout, &ev);
            return 0;
        }
        """

    /// Compiles the rewriter into `directory`.
    static func buildEvemuRewriter(in directory: URL) throws -> String {
        guard let compiler, let evemuLibrary else { throw Failure(description: evemuSkipReason) }
        let source = directory.appendingPathComponent("rewrite.c")
        let binary = directory.appendingPathComponent("rewrite").path
        try evemuRewriterSource.write(to: source, atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.run(compiler, ["-o", binary, source.path, evemuLibrary])
        guard outcome.status == 0 else { throw Failure(description: "cc failed: \(outcome.standardError)") }
        return binary
    }

    /// Loads a recording with `libinput replay`'s own code (its YAML loading,
    /// `check_file`, `create` with python-libevdev, `collect_events`), with
    /// only the uinput device creation and the udev comparison replaced,
    /// and prints what it would create and replay.
    static let replayLoaderSource = """
        import sys, types, importlib.machinery, importlib.util
        sys.modules.setdefault("pyudev", types.ModuleType("pyudev"))
        loader = importlib.machinery.SourceFileLoader("libinput_replay", sys.argv[1])
        spec = importlib.util.spec_from_loader("libinput_replay", loader)
        replay = importlib.util.module_from_spec(spec)
        loader.exec_module(replay)
        import libevdev, yaml

        class FakeUinput:
            devnode = "/dev/input/event99"
        created = []
        def fake_create_uinput_device(self, *args, **kwargs):
            created.append(self)
            return FakeUinput()
        libevdev.Device.create_uinput_device = fake_create_uinput_device
        udev = []
        replay.check_udev_properties = lambda data, uinput: udev.append(replay.fetch(replay.fetch(data, "udev"), "properties"))

        with open(sys.argv[2]) as f:
            recording = yaml.safe_load(f)
        replay.check_file(recording)
        for device in replay.fetch(recording, "devices"):
            replay.create(device)
            d = created[-1]
            print("name:", d.name)
            print("id:", d.id["bustype"], d.id["vendor"], d.id["product"], d.id["version"])
            for prop in d.properties:
                print("property:", prop.value)
            for evtype, codes in sorted(d.evbits.items(), key=lambda t: t[0].value):
                for code in codes:
                    line = "code: %d %d" % (evtype.value, code.value)
                    if evtype == libevdev.EV_ABS:
                        a = d.absinfo[code]
                        line += " %d %d %d %d %d" % (a.minimum, a.maximum, a.fuzz, a.flat, a.resolution)
                    print(line)
            print("udev:", ",".join(udev[-1] or []))
            for event in replay.fetch(device, "events") or []:
                # As replay() does: entries without evdev events are skipped.
                try:
                    evdev = replay.fetch(event, "evdev")
                except replay.YamlException:
                    continue
                for e in replay.collect_events(evdev):
                    print("event: %d %d %d %d %d" % (e.sec, e.usec, e.type.value, e.code.value, e.value))
        """
}
