// GTK 3 and gtk-layer-shell for the on-screen button (gesturectl-button),
// the only target that imports this module: gesturectl and the daemon link
// no GTK.
#ifndef GESTURECTL_CGTK_H
#define GESTURECTL_CGTK_H

#include <gtk/gtk.h>
#include <gtk-layer-shell.h>

#endif
