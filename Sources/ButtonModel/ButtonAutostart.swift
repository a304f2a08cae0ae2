/// The button's XDG autostart entry (issue 38): off until the person turns
/// it on (`gesturectl-button --autostart on`), and the `.desktop` launcher
/// text both the entry and a menu launcher use.
public enum ButtonAutostart {
    /// The launcher: a desktop entry that starts `gesturectl-button` from
    /// the `PATH`, named and described for a desktop's menu and its screen
    /// reader.
    public static let desktopEntry = """
        [Desktop Entry]
        Type=Application
        Name=gesturectl button
        GenericName=AssistiveTouch button
        Comment=A floating button whose menu plays saved multi-finger gestures and presses buttons
        Exec=gesturectl-button
        Icon=input-touchpad
        Terminal=false
        Categories=Utility;Accessibility;
        Keywords=assistive;touch;gesture;switch;accessibility;
        X-GNOME-Autostart-enabled=true

        """

    /// Where the autostart entry goes: `$XDG_CONFIG_HOME/autostart/`, else
    /// `~/.config/autostart/`; `nil` when neither is an absolute folder.
    public static func path(environment: [String: String]) -> String? {
        XDGFolder.config(environment: environment).map { $0 + "/autostart/gesturectl-button.desktop" }
    }
}
