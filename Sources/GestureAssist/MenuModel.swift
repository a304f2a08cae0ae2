import GestureMenu

// The menu's configuration lives in GestureMenu (pure Swift, no engine), so
// that the terminal menu, the daemon's menu and the on-screen button read
// one model of menu.json; these names keep GestureAssist's API as it was.

/// One item of the menu of actions (GestureMenu's ``GestureMenu/MenuEntry``).
public typealias MenuEntry = GestureMenu.MenuEntry
/// The menu's configuration (GestureMenu's ``GestureMenu/MenuConfiguration``).
public typealias MenuConfiguration = GestureMenu.MenuConfiguration
/// `menu.json` (GestureMenu's ``GestureMenu/MenuConfigurationFile``).
public typealias MenuConfigurationFile = GestureMenu.MenuConfigurationFile
/// Why `menu.json` cannot be used (GestureMenu's ``GestureMenu/MenuConfigurationError``).
public typealias MenuConfigurationError = GestureMenu.MenuConfigurationError
