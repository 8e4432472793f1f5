#ifndef NOTIFY_SCHED_CLINUX_SHIM_H
#define NOTIFY_SCHED_CLINUX_SHIM_H

// Linux and glibc declarations that `import Glibc` leaves out, and the one piece of C that
// Swift cannot express safely: a signal handler.
// timerfd_create, timerfd_settime and their flags:
#include <sys/timerfd.h>
// malloc_trim:
#include <malloc.h>
// eventfd, which hands work finished on another thread back to the main loop:
#include <sys/eventfd.h>
// prctl, for a thread's timer slack:
#include <sys/prctl.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

// SIGTERM and SIGINT counted on an eventfd (TerminationSignals): the handler only writes to
// it, which is async-signal-safe, and touches nothing Swift manages (a Swift global is set up
// lazily, which a handler must not risk).
static int notify_sched_termination_eventfd = -1;

static void notify_sched_count_termination(int signal) {
    (void)signal;
    int saved = errno;
    uint64_t one = 1;
    (void)write(notify_sched_termination_eventfd, &one, sizeof one);
    errno = saved;
}

// Counts SIGTERM and SIGINT on `eventfd` from now on: 0, or -1 with errno set.
static inline int notify_sched_count_terminations(int eventfd) {
    notify_sched_termination_eventfd = eventfd;
    struct sigaction action = {0};
    action.sa_handler = notify_sched_count_termination;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGTERM, &action, NULL) != 0) return -1;
    return sigaction(SIGINT, &action, NULL);
}

// Sets the calling thread's timer slack (how much later than asked the kernel may end its
// sleeps, 50 µs by default) to `nanoseconds`: 0, or -1 with errno set. prctl is variadic,
// which Swift cannot call.
static inline int notify_sched_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

#endif
