#ifndef NOTIFY_SCHED_CLIBNOTIFY_SHIM_H
#define NOTIFY_SCHED_CLIBNOTIFY_SHIM_H

// libnotify for the popups, and GIO (which libnotify's pkg-config already brings in:
// libnotify.pc requires gio-2.0) for the default URI handler and the bus-name watch.
// Deprecated libnotify calls stay hidden so that nothing can start using them.
#define LIBNOTIFY_DISABLE_DEPRECATED 1
#include <libnotify/notify.h>
#include <gio/gio.h>
// g_unix_fd_add_full and g_unix_signal_add_full: the daemon's timer descriptor and SIGTERM.
#include <glib-unix.h>

/// Wraps `g_signal_connect_data` (what the `g_signal_connect` macro expands to) for the typed
/// "closed" signal of a `NotifyNotification`, which Swift cannot pass as a bare `GCallback`.
static inline gulong cnotify_connect_closed(NotifyNotification *notification,
                                            void (*handler)(NotifyNotification *, gpointer),
                                            gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(notification, "closed", G_CALLBACK(handler), data, destroy, (GConnectFlags)0);
}

#endif
