// libudev: device enumeration and the netlink monitor.
#ifndef GESTURECTL_CLIBUDEV_H
#define GESTURECTL_CLIBUDEV_H

#include <libudev.h>

#endif
