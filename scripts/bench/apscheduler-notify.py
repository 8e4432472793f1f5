"""A Python scheduler baseline for scripts/bench-daemon's precision section: APScheduler 3.x with
one DateTrigger job per entry, each sending org.freedesktop.Notifications.Notify on the session bus
through Gio when it runs.

Usage: PYTHON scripts/bench/apscheduler-notify.py FILE

FILE holds `SECONDS.MICROSECONDS SUMMARY` lines (due time since the epoch, UTC). Prints
`ready: N pending` on standard output once the scheduler runs, and exits 0 once every job ran
(however late: a job is never skipped as misfired, so that lateness is measured, not hidden).
"""
import datetime
import os
import sys
import threading

from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED
from apscheduler.schedulers.background import BackgroundScheduler
from gi.repository import Gio, GLib


def read_entries(path):
    """The (due time as an aware UTC datetime, summary) pairs of `path`, microseconds kept exact."""
    entries = []
    with open(path) as lines:
        for line in lines:
            stamp, summary = line.rstrip("\n").split(" ", 1)
            seconds, _, fraction = stamp.partition(".")
            moment = datetime.datetime.fromtimestamp(int(seconds), datetime.timezone.utc)
            entries.append((moment.replace(microsecond=int(fraction.ljust(6, "0")[:6])), summary))
    return entries


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    entries = read_entries(sys.argv[1])
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)

    def notify(due, summary):
        # The arguments notify-sched sends for a feed entry with a title and nothing else (as
        # scripts/bench/timerfd-notify.c does): app name, no replaced id, no icon, summary, no
        # body, the three snooze buttons and the default action, its hints, the server's default
        # timeout.
        actions = ["snooze-600", "In 10min", "snooze-3600", "In 1h", "snooze-tomorrow", "Tomorrow", "default", summary]
        occurrence = f"{int(due.timestamp() * 1_000_000):016x}"
        hints = {"x-notify-sched-id": GLib.Variant("s", occurrence),
                 "desktop-entry": GLib.Variant("s", "notify-sched"),
                 "urgency": GLib.Variant("y", 1), "sender-pid": GLib.Variant("x", os.getpid())}
        arguments = GLib.Variant("(susssasa{sv}i)", ("apscheduler-notify", 0, "", summary, "", actions, hints, -1))
        bus.call_sync(
            "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications",
            "Notify", arguments, GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, -1, None)

    finished = threading.Event()
    ran = 0

    def count(event):
        nonlocal ran
        ran += 1
        if event.exception is not None:
            print(f"apscheduler-notify: Notify failed: {event.exception}", file=sys.stderr)
        if ran == len(entries):
            finished.set()

    scheduler = BackgroundScheduler(timezone=datetime.timezone.utc)
    scheduler.add_listener(count, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    for due, summary in entries:
        scheduler.add_job(notify, "date", run_date=due, args=[due, summary], misfire_grace_time=None)
    scheduler.start()
    print(f"ready: {len(entries)} pending", flush=True)
    if entries:
        finished.wait()
    scheduler.shutdown(wait=True)


if __name__ == "__main__":
    main()
