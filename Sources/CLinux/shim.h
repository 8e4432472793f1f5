#ifndef NOTIFY_SCHED_CLINUX_SHIM_H
#define NOTIFY_SCHED_CLINUX_SHIM_H

// Linux and glibc declarations that `import Glibc` leaves out. Nothing needs wrapping.
// timerfd_create, timerfd_settime and their flags:
#include <sys/timerfd.h>
// malloc_trim:
#include <malloc.h>
// eventfd, which hands work finished on another thread back to the main loop:
#include <sys/eventfd.h>

#endif
