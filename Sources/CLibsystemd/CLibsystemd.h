// libsystemd's daemon helpers: sd_notify (readiness, status, stopping) and
// sd_listen_fds (sockets handed over by socket activation).
#ifndef GESTURECTL_CLIBSYSTEMD_H
#define GESTURECTL_CLIBSYSTEMD_H

#include <systemd/sd-daemon.h>

#endif
