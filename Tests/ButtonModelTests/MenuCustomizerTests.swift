import ButtonModel
import GestureMenu
import GestureModel
import Glibc
import Testing

private func key(_ name: String) -> MenuEntry { MenuEntry(.press(KeyboardKeys.buttons.first { $0.name == name }!)) }

/// A fresh folder for `menu.json`, removed with everything in it afterwards.
private func withFolder(_ body: (String) throws -> Void) rethrows {
    var template = Array("/tmp/button-customize-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    defer {
        for name in ["gesturectl/menu.json"] { unlink(folder + "/" + name) }
        rmdir(folder + "/gesturectl")
        rmdir(folder)
    }
    try body(folder)
}

private func write(_ text: String, to path: String) throws {
    let file = try #require(fopen(path, "w"))
    fputs(text, file)
    fclose(file)
}

@Suite struct TopLevelEdits {
    @Test func moveAddRemoveWithinOneToEight() throws {
        var menu = MenuConfiguration.defaults
        #expect(menu.items.count == 8)
        #expect(!menu.canAddTopLevelItem)
        #expect(throws: MenuEditError.self) { try menu.addTopLevelItem(key("mute")) }
        try menu.moveTopLevelItem(at: 0, to: 2)
        #expect(menu.items.prefix(3) == [key("back"), key("volume-up"), key("home")])
        try menu.removeTopLevelItem(at: 2)
        #expect(menu.items.count == 7 && !menu.items.contains(key("home")))
        try menu.addTopLevelItem(key("mute"))
        #expect(menu.items.last == key("mute"))
        while menu.items.count > 1 { try menu.removeTopLevelItem(at: 0) }
        #expect(!menu.canRemoveTopLevelItem)
        #expect { try menu.removeTopLevelItem(at: 0) } throws: { "\($0)".contains("at least 1") }
        #expect(throws: MenuEditError.self) { try menu.moveTopLevelItem(at: 0, to: 1) }
    }

    @Test func additionsLeaveOutWhatIsThereAndOfferSavedGestures() {
        let menu = MenuConfiguration(items: [key("home"), MenuEntry(.gestures)])
        let offered = menu.topLevelAdditions(savedGestures: ["swipe-up", "bad/name"])
        #expect(!offered.contains(key("home")))
        #expect(!offered.contains(MenuEntry(.gestures)))
        #expect(offered.contains(key("mute")) && offered.contains(MenuEntry(.create)))
        #expect(offered.last == MenuEntry(.play("swipe-up")))
        #expect(!offered.contains(MenuEntry(.play("bad/name"))))
    }

    @Test func encodedFileReadsBackTheSame() throws {
        let text = """
            {"items": [{"press": "volume-up", "label": "Louder"}, {"press": "KEY_PLAYPAUSE"}, {"play": "tap"},
              {"menu": "gestures"}, {"menu": "buttons"}, {"menu": "fingertips"}, {"create": {}}, {"fingertips": 3},
              {"menu": "Media \\"mine\\"", "items": [{"press": "mute"}, {"menu": "Inner", "items": [{"play": "x"}]}]}]}
            """
        let configuration = try MenuConfigurationFile.parse(Array(text.utf8), path: "menu.json")
        let encoded = MenuConfigurationFile.encode(configuration)
        #expect(try MenuConfigurationFile.parse(encoded, path: "menu.json") == configuration)
        #expect(try MenuConfigurationFile.parse(MenuConfigurationFile.encode(.defaults), path: "m") == .defaults)
        #expect(String(decoding: encoded, as: UTF8.self).hasPrefix("{\"items\": [\n  {\"press\": \"volume-up\", \"label\": \"Louder\"},\n"))
    }

    @Test func savedAtomicallyAndReadBack() throws {
        try withFolder { folder throws in
            let path = folder + "/gesturectl/menu.json"  // the folder is made
            let menu = MenuConfiguration(items: [key("mute"), MenuEntry(.create)])
            try MenuConfigurationFile.save(menu, path: path)
            #expect(try MenuConfigurationFile.load(path: path) == menu)
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o644)
            #expect { try MenuConfigurationFile.save(menu, path: "/proc/no/such/menu.json") } throws: { "\($0)".contains("/proc/no") }
        }
    }
}

@Suite struct CustomizeTopLevelMenu {
    @Test func rowsHaveNamedControlsEnabledWhereTheyCanAct() {
        let customizer = MenuCustomizer(configuration: MenuConfiguration(items: [key("home"), key("mute")]))
        #expect(customizer.rows.map(\.label) == ["Home", "Mute"])
        #expect(customizer.rows[0].buttons.map(\.name) == ["Move Home up", "Move Home down", "Remove Home"])
        #expect(customizer.rows[0].buttons.map(\.enabled) == [false, true, true])
        #expect(customizer.rows[1].buttons.map(\.enabled) == [true, false, true])
        #expect(customizer.footer.map(\.control) == [.add, .reset, .done])
        #expect(customizer.footer.allSatisfy { $0.enabled })
        #expect(customizer.status == "2 items on the top level (1 to 8)")
        #expect(customizer.initialFocus == .moveDown(0))
    }

    @Test func editsAskForAWriteAndTakeEffectWhenSaved() throws {
        var customizer = MenuCustomizer(configuration: .defaults)
        #expect(customizer.footer[0].enabled == false, "8 items: nothing more may be added")
        let (effect, focus) = customizer.press(.remove(0))
        guard case .write(let edited) = effect else {
            Issue.record("remove: \(effect)")
            return
        }
        #expect(edited.items.count == 7 && edited.items.first == key("back"))
        #expect(focus == .remove(0))
        #expect(customizer.configuration == .defaults, "nothing changes until the write is done")
        customizer.saved(edited)
        #expect(customizer.rows.count == 7 && customizer.footer[0].enabled)
        customizer.savedGestures = ["swipe"]
        let offer = customizer.press(.add)
        #expect(offer.effect == .none && offer.focus == .addition(0))
        #expect(customizer.isChoosingAddition && customizer.rows.isEmpty)
        #expect(customizer.footer.map(\.control) == [.cancelAddition])
        let offered = customizer.additionButtons
        #expect(offered.first?.name == "Add Mute")
        #expect(offered.contains { $0.name == "Add Home" })
        let index = try #require(offered.firstIndex { $0.label == "Play swipe" })
        guard case .write(let added) = customizer.press(.addition(index)).effect else {
            Issue.record("add")
            return
        }
        #expect(added.items.last == MenuEntry(.play("swipe")))
        #expect(!customizer.isChoosingAddition)
        // Cancel, and Escape, offer nothing.
        _ = customizer.press(.add)
        #expect(customizer.press(.cancelAddition) == (.none, .add))
        _ = customizer.press(.add)
        #expect(customizer.escape().effect == .none && !customizer.isChoosingAddition)
        // Moves: the focus follows the item.
        #expect(customizer.press(.moveDown(0)).focus == .moveDown(1))
        #expect(customizer.press(.moveUp(1)).focus == .moveDown(0))
        #expect(customizer.press(.moveDown(5)).focus == .moveUp(6))
        // A write that fails: the menu is as it was, and the status says why.
        customizer.failed("cannot write x: Permission denied")
        #expect(customizer.status.contains("Permission denied"))
        #expect(customizer.configuration == edited)
    }

    @Test func resetAsksFirstAndItsDefaultKeepsTheMenu() {
        var customizer = MenuCustomizer(configuration: MenuConfiguration(items: [key("mute")]))
        #expect(customizer.rows[0].buttons[2].enabled == false, "the last item cannot be removed")
        #expect(customizer.press(.remove(0)).effect == .none)
        let asked = customizer.press(.reset)
        #expect(asked.effect == .none, "Reset does nothing at once")
        #expect(asked.focus == .keepMenu)
        #expect(customizer.isConfirmingReset && customizer.rows.isEmpty)
        #expect(customizer.status.contains("Reset the menu to the default one?"))
        #expect(customizer.footer.map(\.control) == [.keepMenu, .confirmReset])
        #expect(customizer.footer.map(\.role) == [.primary, .destructive], "the primary choice is the one that loses nothing")
        #expect(customizer.initialFocus == .keepMenu)
        // Escape and Keep my menu keep it.
        #expect(customizer.escape().effect == .none)
        #expect(!customizer.isConfirmingReset)
        _ = customizer.press(.reset)
        #expect(customizer.press(.keepMenu).effect == .none)
        _ = customizer.press(.reset)
        #expect(customizer.press(.confirmReset).effect == .reset)
        #expect(customizer.escape().effect == .close)
        #expect(customizer.press(.done).effect == .close)
    }

    @Test func storesThroughGestureMenuAndResetDeletesTheFile() throws {
        try withFolder { folder throws in
            let path = folder + "/gesturectl/menu.json"
            var customizer = MenuCustomizer.load(path: path)
            #expect(customizer.configuration == .defaults && customizer.problem == nil)
            let effect = customizer.press(.remove(7)).effect
            #expect(customizer.store(effect, path: path)?.contains("7 items") == true)
            #expect(try MenuConfigurationFile.load(path: path)?.items.count == 7)
            #expect(MenuCustomizer.load(path: path).configuration.items.count == 7)
            _ = customizer.press(.reset)
            let reset = customizer.press(.confirmReset).effect
            #expect(customizer.store(reset, path: path)?.contains("default") == true)
            #expect(try MenuConfigurationFile.load(path: path) == nil)
            #expect(customizer.configuration == .defaults)
        }
    }

    @Test func aDamagedFileIsNeverOverwrittenByAnEditOnlyReset() throws {
        try withFolder { folder throws in
            mkdir(folder + "/gesturectl", 0o700)
            let path = folder + "/gesturectl/menu.json"
            try write("{\"items\": [{\"press\": \"volum-up\"}]}", to: path)
            var customizer = MenuCustomizer.load(path: path)
            #expect(customizer.fileIsDamaged)
            #expect(customizer.status.contains("volum-up") && customizer.status.contains("Reset"))
            #expect(customizer.rows.isEmpty)
            #expect(customizer.footer.first { $0.control == .add }?.enabled == false)
            #expect(customizer.press(.add).effect == .none)
            #expect(customizer.press(.remove(0)).effect == .none)
            #expect(customizer.initialFocus == .reset)
            _ = customizer.press(.reset)
            #expect(customizer.store(customizer.press(.confirmReset).effect, path: path) != nil)
            #expect(!customizer.fileIsDamaged && customizer.rows.count == 8)
        }
    }

    @Test func withoutAHomeNothingIsWrittenAndItSaysWhy() {
        var customizer = MenuCustomizer.load(path: nil)
        #expect(customizer.status.contains("XDG_CONFIG_HOME"))
        #expect(MenuCustomizer.path(environment: [:]) == nil)
        customizer.saved(.defaults)
        let effect = customizer.press(.remove(0)).effect
        #expect(customizer.store(effect, path: nil)?.contains("was not changed") == true)
        #expect(customizer.configuration == .defaults)
    }
}
