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

/// Wraps `g_signal_connect_data` for the typed "changed" signal of a `GFileMonitor`.
static inline gulong cgio_connect_file_changed(GFileMonitor *monitor,
                                               void (*handler)(GFileMonitor *, GFile *, GFile *,
                                                               GFileMonitorEvent, gpointer),
                                               gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(monitor, "changed", G_CALLBACK(handler), data, destroy, (GConnectFlags)0);
}

/// Reads a `NotifyNotification`'s "id" property through `g_object_get`, which is variadic:
/// the server's id for the popup, 0 before it was shown.
static inline guint32 cnotify_notification_get_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return (guint32)id;
}

/// Sets a `NotifyNotification`'s "id" property through `g_object_set`, which is variadic: the
/// next `notify_notification_show` sends it as `Notify`'s replaces_id.
static inline void cnotify_notification_set_id(NotifyNotification *notification, gint id) {
    g_object_set(notification, "id", id, NULL);
}

#endif
