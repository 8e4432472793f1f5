/* The physical limit for scripts/bench-daemon's precision section: one timerfd on the wall clock,
 * armed at the earliest due time, and a Notify call on the session bus when it expires.
 *
 *   timerfd-notify [--libnotify] [FILE]        reads standard input without FILE
 *
 * With --libnotify each popup goes out through libnotify instead, as the simplest libnotify
 * client sends one (a new NotifyNotification, notify_notification_show, which waits for the
 * server's answer): the limit for a program that shows its popups through libnotify.
 *
 * Each input line is `SECONDS.MICROSECONDS SUMMARY` (due time since the epoch, UTC; the fraction
 * has up to six digits). When an entry falls due it sends org.freedesktop.Notifications.Notify
 * with the arguments notify-sched sends for a feed entry with a title and nothing else (app name,
 * 0, no icon, SUMMARY, no body, the three snooze buttons and the default action, the hints
 * x-notify-sched-id, desktop-entry, urgency and sender-pid, timeout -1), so that the bus and the
 * server handle the same message for each scheduler. It does not wait for the reply before the
 * next entry, and re-arms the timer.
 * Prints `ready: N pending` on standard output once the timer is first armed, and exits 0 when
 * every entry was sent and answered (1 when the bus or the input fails, 2 on a usage error).
 *
 * Build: gcc -O2 -o timerfd-notify timerfd-notify.c $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0 libnotify)
 */
#include <errno.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <libnotify/notify.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* The buttons notify-sched gives a popup by default (key, label), before its default action. */
static const char *const SNOOZE_BUTTONS[][2] = {
    {"snooze-600", "In 10min"}, {"snooze-3600", "In 1h"}, {"snooze-tomorrow", "Tomorrow"}};

/* One notification to send: its due time in microseconds since the epoch and its summary. */
typedef struct {
    gint64 due;
    char *summary;
} Entry;

/* What the timer callback works on: the entries in due order and how far it got. */
typedef struct {
    GDBusConnection *bus;
    GMainLoop *loop;
    int timer;
    Entry *entries;
    gsize count;
    gsize next;
    gsize unanswered;
    /* Whether popups go out through libnotify rather than a GDBus call of its own. */
    gboolean through_libnotify;
} Scheduler;

static int by_due(const void *left, const void *right) {
    const Entry *a = left, *b = right;
    return (a->due > b->due) - (a->due < b->due);
}

/* Reads `SECONDS.MICROSECONDS SUMMARY` lines; returns FALSE with a message on a malformed one. */
static gboolean read_entries(FILE *input, GArray *entries) {
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    guint number = 0;
    while ((length = getline(&line, &capacity, input)) > 0) {
        number++;
        if (line[length - 1] == '\n') line[--length] = '\0';
        if (length == 0) continue;
        char *rest;
        errno = 0;
        gint64 seconds = g_ascii_strtoll(line, &rest, 10);
        gint64 micros = 0;
        if (*rest == '.') {
            /* Six digits exactly, padded on the right: "0.5" is 500000 µs. */
            int digits = 0;
            for (rest++; g_ascii_isdigit(*rest); rest++) {
                if (digits < 6) {
                    micros = micros * 10 + (*rest - '0');
                    digits++;
                }
            }
            for (; digits < 6; digits++) micros *= 10;
        }
        if (errno != 0 || rest == line || *rest != ' ' || rest[1] == '\0') {
            fprintf(stderr, "timerfd-notify: line %u: expected `SECONDS.MICROSECONDS SUMMARY`\n", number);
            free(line);
            return FALSE;
        }
        Entry entry = {seconds * G_USEC_PER_SEC + micros, g_strdup(rest + 1)};
        g_array_append_val(entries, entry);
    }
    free(line);
    return TRUE;
}

/* Arms the timer at the next entry's due time; an instant already past fires at once. */
static void arm(Scheduler *scheduler) {
    gint64 due = scheduler->entries[scheduler->next].due;
    struct itimerspec setting = {0};
    setting.it_value.tv_sec = due / G_USEC_PER_SEC;
    /* Zero would disarm the timer. */
    setting.it_value.tv_nsec = MAX((due % G_USEC_PER_SEC) * 1000, 1);
    timerfd_settime(scheduler->timer, TFD_TIMER_ABSTIME, &setting, NULL);
}

static void quit_when_done(Scheduler *scheduler) {
    if (scheduler->next == scheduler->count && scheduler->unanswered == 0) g_main_loop_quit(scheduler->loop);
}

static void answered(GObject *source, GAsyncResult *result, gpointer data) {
    Scheduler *scheduler = data;
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    if (reply != NULL) {
        g_variant_unref(reply);
    } else {
        fprintf(stderr, "timerfd-notify: Notify failed: %s\n", error->message);
        g_error_free(error);
    }
    scheduler->unanswered--;
    quit_when_done(scheduler);
}

/* notify-sched's hint naming the occurrence a popup shows: 16 hexadecimal digits. */
static char *occurrence_id(const Entry *entry) {
    return g_strdup_printf("%016" G_GINT64_MODIFIER "x", entry->due);
}

/* A button's callback: the benchmark never presses one. */
static void ignore_action(G_GNUC_UNUSED NotifyNotification *notification, G_GNUC_UNUSED char *action,
                          G_GNUC_UNUSED gpointer data) {}

/* Shows the popup of `entry` through libnotify, waiting for the server's answer. */
static void show_through_libnotify(const Entry *entry) {
    NotifyNotification *notification = notify_notification_new(entry->summary, NULL, NULL);
    char *occurrence = occurrence_id(entry);
    notify_notification_set_urgency(notification, NOTIFY_URGENCY_NORMAL);
    notify_notification_set_hint(notification, "x-notify-sched-id", g_variant_new_string(occurrence));
    notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string("notify-sched"));
    g_free(occurrence);
    for (gsize index = 0; index < G_N_ELEMENTS(SNOOZE_BUTTONS); index++) {
        notify_notification_add_action(
            notification, SNOOZE_BUTTONS[index][0], SNOOZE_BUTTONS[index][1], ignore_action, NULL, NULL);
    }
    notify_notification_add_action(notification, "default", entry->summary, ignore_action, NULL, NULL);
    GError *error = NULL;
    if (!notify_notification_show(notification, &error)) {
        fprintf(stderr, "timerfd-notify: Notify failed: %s\n", error->message);
        g_error_free(error);
    }
    g_object_unref(notification);
}

/* Notify's arguments for the popup of `entry`, as notify-sched sends them. */
static GVariant *notify_arguments(const Entry *entry) {
    GVariantBuilder actions, hints;
    g_variant_builder_init(&actions, G_VARIANT_TYPE_STRING_ARRAY);
    for (gsize index = 0; index < G_N_ELEMENTS(SNOOZE_BUTTONS); index++) {
        g_variant_builder_add(&actions, "s", SNOOZE_BUTTONS[index][0]);
        g_variant_builder_add(&actions, "s", SNOOZE_BUTTONS[index][1]);
    }
    g_variant_builder_add(&actions, "s", "default");
    g_variant_builder_add(&actions, "s", entry->summary);
    char *occurrence = occurrence_id(entry);
    g_variant_builder_init(&hints, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&hints, "{sv}", "x-notify-sched-id", g_variant_new_string(occurrence));
    g_variant_builder_add(&hints, "{sv}", "desktop-entry", g_variant_new_string("notify-sched"));
    g_variant_builder_add(&hints, "{sv}", "urgency", g_variant_new_byte(NOTIFY_URGENCY_NORMAL));
    g_variant_builder_add(&hints, "{sv}", "sender-pid", g_variant_new_int64(getpid()));
    g_free(occurrence);
    return g_variant_new("(susssasa{sv}i)", "timerfd-notify", 0, "", entry->summary, "", &actions, &hints, -1);
}

/* Sends every entry due by now, then re-arms for the next one. */
static gboolean expired(gint descriptor, G_GNUC_UNUSED GIOCondition condition, gpointer data) {
    Scheduler *scheduler = data;
    guint64 expirations;
    if (read(descriptor, &expirations, sizeof expirations) != sizeof expirations) return G_SOURCE_CONTINUE;
    gint64 now = g_get_real_time();
    while (scheduler->next < scheduler->count && scheduler->entries[scheduler->next].due <= now) {
        Entry *entry = &scheduler->entries[scheduler->next++];
        if (scheduler->through_libnotify) {
            show_through_libnotify(entry);
            continue;
        }
        GVariant *arguments = notify_arguments(entry);
        scheduler->unanswered++;
        g_dbus_connection_call(
            scheduler->bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
            "org.freedesktop.Notifications", "Notify", arguments, G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1,
            NULL, answered, scheduler);
    }
    if (scheduler->next < scheduler->count) {
        arm(scheduler);
        return G_SOURCE_CONTINUE;
    }
    quit_when_done(scheduler);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    gboolean through_libnotify = argc > 1 && strcmp(argv[1], "--libnotify") == 0;
    int first = through_libnotify ? 2 : 1;
    if (argc > first + 1) {
        fprintf(stderr, "usage: timerfd-notify [--libnotify] [FILE]\n");
        return 2;
    }
    FILE *input = argc == first + 1 ? fopen(argv[first], "r") : stdin;
    if (input == NULL) {
        fprintf(stderr, "timerfd-notify: %s: %s\n", argv[first], strerror(errno));
        return 1;
    }
    if (through_libnotify && !notify_init("timerfd-notify")) {
        fprintf(stderr, "timerfd-notify: libnotify could not start\n");
        return 1;
    }
    GArray *entries = g_array_new(FALSE, FALSE, sizeof(Entry));
    gboolean read_all = read_entries(input, entries);
    if (input != stdin) fclose(input);
    if (!read_all) return 1;
    qsort(entries->data, entries->len, sizeof(Entry), by_due);

    GError *error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (bus == NULL) {
        fprintf(stderr, "timerfd-notify: no session bus: %s\n", error->message);
        g_error_free(error);
        return 1;
    }
    Scheduler scheduler = {
        .bus = bus,
        .loop = g_main_loop_new(NULL, FALSE),
        .timer = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC),
        .entries = (Entry *)entries->data,
        .count = entries->len,
        .through_libnotify = through_libnotify,
    };
    if (scheduler.timer < 0) {
        fprintf(stderr, "timerfd-notify: timerfd_create: %s\n", strerror(errno));
        return 1;
    }
    if (scheduler.count > 0) {
        arm(&scheduler);
        g_unix_fd_add(scheduler.timer, G_IO_IN, expired, &scheduler);
    }
    printf("ready: %zu pending\n", scheduler.count);
    fflush(stdout);
    if (scheduler.count > 0) g_main_loop_run(scheduler.loop);

    for (gsize index = 0; index < scheduler.count; index++) g_free(scheduler.entries[index].summary);
    g_array_free(entries, TRUE);
    g_main_loop_unref(scheduler.loop);
    close(scheduler.timer);
    g_object_unref(bus);
    return 0;
}
