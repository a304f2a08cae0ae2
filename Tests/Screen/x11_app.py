#!/usr/bin/env python3
"""The X11 tier's helpers (Tests/Screen/x11), through GTK 3's own bindings:

  x11_app.py app LOG    a maximized window, the app beneath: writes
                        "ready WINDOW-ID" to LOG once mapped, and "press X Y"
                        for each button press it receives
  x11_app.py shot FILE  a PNG of the whole screen (the root window)
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def app(log_path):
    log = open(log_path, "a", buffering=1)
    window = Gtk.Window(title="x11-test-app")
    # A dark, even background: the button and its menu stand out.
    css = Gtk.CssProvider()
    css.load_from_data(b"window { background: #334050; }")
    Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
    area = Gtk.EventBox()
    area.set_visible_window(False)

    def press(_widget, event):
        log.write(f"press {int(event.x_root)} {int(event.y_root)}\n")

    def ready():
        log.write(f"ready {window.get_window().get_xid()}\n")
        return False

    def mapped(_widget, _event):
        GLib.timeout_add(200, ready)

    area.connect("button-press-event", press)
    window.connect("map-event", mapped)
    window.connect("destroy", Gtk.main_quit)
    window.add(area)
    # Maximized, as most apps are: a window manager such as openbox puts a
    # focused full-screen window above keep-above ones (its own layer).
    window.maximize()
    window.show_all()
    Gtk.main()


def shot(path):
    root = Gdk.get_default_root_window()
    pixbuf = Gdk.pixbuf_get_from_window(root, 0, 0, root.get_width(), root.get_height())
    pixbuf.savev(path, "png", [], [])


if __name__ == "__main__":
    if sys.argv[1] == "app":
        app(sys.argv[2])
    elif sys.argv[1] == "shot":
        shot(sys.argv[2])
