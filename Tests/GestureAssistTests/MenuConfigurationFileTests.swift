import GestureAssist
import GesturePlayback
import Testing
import TestSupport

/// `menu.json`: what it accepts, and errors that name the file and the field.
@Suite struct MenuConfigurationFileTests {
    func parse(_ text: String) throws(MenuConfigurationError) -> MenuConfiguration {
        try MenuConfigurationFile.parse(Array(text.utf8), path: "/home/u/.config/gesturectl/menu.json")
    }

    func refusal(_ text: String) -> String {
        do {
            _ = try parse(text)
            Issue.record("accepted: \(text)")
            return ""
        } catch {
            return error.message
        }
    }

    @Test func everyKindOfItemInOrder() throws {
        let configuration = try parse(
            """
            {"items": [
              {"press": "volume-up", "label": "Louder"},
              {"press": "KEY_PLAYPAUSE"},
              {"play": "three-finger-swipe-up"},
              {"menu": "buttons"},
              {"menu": "gestures", "label": "My gestures"},
              {"menu": "Media", "items": [{"press": "mute"}]},
              {"create": {}}
            ]}
            """)
        let volumeUp = try VirtualKeyboard.key(named: "volume-up")
        #expect(
            configuration.items == [
                MenuEntry(.press(volumeUp), label: "Louder"), MenuEntry(.press(try VirtualKeyboard.key(named: "KEY_PLAYPAUSE"))),
                MenuEntry(.play("three-finger-swipe-up")), MenuEntry(.buttons), MenuEntry(.gestures, label: "My gestures"),
                MenuEntry(.menu(title: "Media", items: [MenuEntry(.press(try VirtualKeyboard.key(named: "mute")))])),
                MenuEntry(.create),
            ])
        #expect(configuration.items.map(\.shownLabel) == [
            "Louder", "Play or pause", "three-finger-swipe-up", "Buttons menu", "My gestures", "Media menu", "Create New Gesture",
        ])
    }

    @Test func errorsNameTheFileAndTheField() {
        let file = "/home/u/.config/gesturectl/menu.json: "
        #expect(refusal("{\"items\": [\n  {\"press\": \"home\"},\n]}") == file + "not JSON: line 3, column 1: expected a value, found ']'")
        #expect(refusal("[]").hasPrefix(file + "must be a JSON object"))
        #expect(refusal("{}") == file + "\"items\" is missing (the top level's items, in order)")
        #expect(refusal("{\"items\": [], \"colour\": 1}").hasPrefix(file + "items: must have at least one item"))
        #expect(refusal("{\"colour\": 1}") == file + "unknown key \"colour\" (known: items)")
        #expect(refusal("{\"items\": [{\"press\": \"volum-up\"}]}").hasPrefix(file + "items[0].press: unknown button \"volum-up\"; buttons: volume-up"))
        #expect(refusal("{\"items\": [{\"press\": \"KEY_A\"}]}").hasPrefix(file + "items[0].press: KEY_A is not a key"))
        #expect(refusal("{\"items\": [{\"press\": 3}]}") == file + "items[0].press: must be a button name such as \"volume-up\"")
        #expect(refusal("{\"items\": [{\"press\": \"home\"}, {\"play\": \"a/b\"}]}").hasPrefix(file + "items[1].play: "))
        #expect(refusal("{\"items\": [{\"label\": \"x\"}]}").hasPrefix(file + "items[0]: has no action"))
        #expect(refusal("{\"items\": [{\"press\": \"home\", \"play\": \"x\"}]}") == file + "items[0]: has \"press\" and \"play\"; give only one action")
        #expect(refusal("{\"items\": [{\"press\": \"home\", \"label\": \"\"}]}").hasPrefix(file + "items[0].label: must be a text"))
        #expect(refusal("{\"items\": [{\"press\": \"home\", \"items\": []}]}") == file + "items[0].items: only a \"menu\" item has items")
        #expect(refusal("{\"items\": [{\"menu\": \"Media\"}]}").hasPrefix(file + "items[0].items: is missing"))
        #expect(refusal("{\"items\": [{\"menu\": \"buttons\", \"items\": [{\"press\": \"home\"}]}]}").hasPrefix(file + "items[0].items: the buttons menu"))
        #expect(refusal("{\"items\": [{\"menu\": \"Media\", \"items\": [{\"press\": \"nope\"}]}]}").hasPrefix(file + "items[0].items[0].press: unknown button"))
        #expect(refusal("{\"items\": [{\"create\": true}]}") == file + "items[0].create: must be {}")
        #expect(refusal("{\"items\": [{\"press\": \"home\", \"icon\": \"x\"}]}").hasPrefix(file + "items[0]: unknown key \"icon\""))
        let many = (0..<31).map { _ in "{\"press\": \"home\"}" }.joined(separator: ",")
        #expect(refusal("{\"items\": [\(many)]}").hasPrefix(file + "items: has 31 items; the most is 30"))
        var deep = "{\"press\": \"home\"}"
        for level in 0..<4 { deep = "{\"menu\": \"M\(level)\", \"items\": [\(deep)]}" }
        #expect(refusal("{\"items\": [\(deep)]}").hasSuffix(": menus nest at most 4 deep"))
    }

    @Test func missingFileMeansDefaultsAndResetDeletesIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("menu.json")
        #expect(try MenuConfigurationFile.load(path: path) == nil)
        #expect(try MenuConfigurationFile.reset(path: path) == false)
        try folder.write("menu.json", "{\"items\": [{\"create\": {}}]}")
        #expect(try MenuConfigurationFile.load(path: path) == MenuConfiguration(items: [MenuEntry(.create)]))
        #expect(try MenuConfigurationFile.reset(path: path) == true)
        #expect(try MenuConfigurationFile.load(path: path) == nil)
        #expect(MenuConfigurationFile.userPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/gesturectl/menu.json")
        #expect(MenuConfigurationFile.userPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/gesturectl/menu.json")
        #expect(MenuConfigurationFile.userPath(environment: [:]) == nil)
    }
}
