#ifndef NOTIFY_SCHED_CTIMERFD_SHIM_H
#define NOTIFY_SCHED_CTIMERFD_SHIM_H

// timerfd_create, timerfd_settime and their flags: glibc declares them in <sys/timerfd.h>,
// which `import Glibc` does not include. Nothing needs wrapping.
#include <sys/timerfd.h>

#endif
