"""The desktop harness notify-sched's tools share: real notification servers, each under Xvfb
on a private D-Bus session bus (no auto-activation, so no other server can take its place) and a
private, empty system bus, with a private HOME and XDG dirs and dbus-monitor as an independent
record of the Notify, CloseNotification, ActionInvoked and NotificationClosed traffic.

scripts/desktop-matrix runs its scenarios on it; scripts/preview-popups (installed for
`notify-sched preview --servers`) renders a feed's popups on it.
"""

import os
import re
import shlex
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

SCREEN = (1280, 800)
POINTER_REST = (640, 400)  # away from every server's popups: hovering pauses some timeouts
TEST_SCHEME = "x-nstest"
NOTIFICATIONS = "org.freedesktop.Notifications"



def start_xvfb(spawn):
    """Starts Xvfb on a free display through `spawn(argv, pass_fds)`, waits until it accepts
    clients and returns the display's name (":N")."""
    read, write = os.pipe()
    spawn(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
           "-nolisten", "tcp"], (write,))
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        raise RuntimeError("Xvfb did not start")
    return f":{number}"


@dataclass
class Server:
    """A notification server and where its popups put the buttons notify-sched asks for.

    `buttons` maps a layout to the (x, y) of the action button inside the popup window; a
    negative x counts from the window's right edge, a negative y from its bottom (measured from
    screenshots of these versions). `default_drawn` and `markup` are what those screenshots
    showed of a popup with the `default` action and a label with `&` and `<`, sent as they are;
    the run checks that notify-sched no longer sends either to a server that draws them wrong,
    and keeps screenshots of what it sends now.

    A server that draws its popups in its own stage (GNOME Shell) has no popup windows:
    `banner_column` is the (left, top, width, height) of the screen where its banners appear,
    which then stand for windows, and the pointer goes onto a banner before its buttons are
    looked for. `bus_name` is the name the server itself takes; a `companion` started once it
    has it takes org.freedesktop.Notifications and passes popups on to it. `start_keys` leave the
    screen it starts with; `home_files` (path: text) are written in the private home first. An
    `optional` server runs only when installed or named. A server that `keeps_popups` keeps an
    expired popup answerable (GNOME's message list) without a word: notify-sched is to keep
    waiting.
    """
    name: str
    package: str
    command: list
    env: dict = field(default_factory=dict)
    buttons: dict = field(default_factory=dict)
    uses_menu: bool = False
    default_drawn: str = ""
    markup: str = ""
    banner_column: tuple = ()
    keeps_popups: bool = False
    bus_name: str = NOTIFICATIONS
    companion: list = field(default_factory=list)
    start_keys: list = field(default_factory=list)
    home_files: dict = field(default_factory=dict)
    optional: bool = False


SERVERS = [
    Server("notification-daemon", "notification-daemon",
           ["/usr/lib/notification-daemon/notification-daemon"],
           {"XDG_CURRENT_DESKTOP": "GNOME"},
           buttons={"popup": (-100, 87), "prompt": (121, 87)},
           default_drawn="not drawn (a click on the popup body)",
           markup="no button visible (blank label on a flat button)"),
    Server("dunst", "dunst", ["/usr/bin/dunst"], {}, uses_menu=True,
           default_drawn="menu item labelled with the title",
           markup="verbatim in the menu"),
    Server("xfce4-notifyd", "xfce4-notifyd",
           ["/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"],
           {"XDG_CURRENT_DESKTOP": "XFCE"},
           buttons={"popup": (-70, -38), "prompt": (67, -31)},
           default_drawn="button labelled with the title",
           markup="verbatim"),
    Server("mate-notification-daemon", "mate-notification-daemon",
           ["/usr/lib/mate-notification-daemon/mate-notification-daemon"],
           {"XDG_CURRENT_DESKTOP": "MATE"},
           buttons={"popup": (-84, -28), "prompt": (-262, -27)},
           default_drawn="not drawn (a click on the popup body)",
           markup="blank button (parsed as markup, fails)"),
    Server("lxqt-notificationd", "lxqt-notificationd", ["/usr/bin/lxqt-notificationd"],
           {"XDG_CURRENT_DESKTOP": "LXQt", "QT_QPA_PLATFORM": "xcb"},
           buttons={"popup": (89, -39), "prompt": (89, -39)},
           default_drawn="button labelled with the title",
           markup="`&` taken as a mnemonic (underlined space), `<` verbatim, elided"),
    Server("gnome-shell", "gnome-shell", ["gnome-shell", "--x11"],
           {"XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_TYPE": "x11"},
           buttons={"popup": (250, -28), "prompt": (85, -28)},
           default_drawn="not drawn (a click on the banner body)",
           markup="verbatim",
           banner_column=(380, 32, 520, 320), bus_name="org.gnome.Shell",
           companion=["gjs", "/usr/share/gnome-shell/org.gnome.Shell.Notifications"],
           start_keys=["Escape"],
           # its record of having warned that there is no screen lock (GDM is not running):
           # the warning would be one more banner at the top
           home_files={".local/share/gnome-shell/lock-warning-shown": ""}, optional=True,
           keeps_popups=True),
    Server("plasma-workspace", "plasma-workspace",
           ["plasmawindowed", "org.kde.plasma.notifications"],
           {"XDG_CURRENT_DESKTOP": "KDE", "QT_QPA_PLATFORM": "xcb"},
           buttons={"popup": (-53, -20), "prompt": (-249, -20)},
           default_drawn="not drawn (a click on the popup body)",
           markup="verbatim",
           # plasmawindowed takes the applet's window for the screen its popups go on: a window
           # the size of the screen (the notification history) puts them in its bottom right
           home_files={".config/plasmawindowedrc":
                       "[Applets][1]\nplugin=org.kde.plasma.notifications\n"
                       f"[Applets][1][Configuration]\ngeometry=0,0,{SCREEN[0]},{SCREEN[1]}\n"},
           optional=True),
]

class Processes:
    """Every child this script starts, each in a process group of its own, ended at exit."""

    def __init__(self):
        self.children = []

    def start(self, argv, env, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, **kwargs):
        child = subprocess.Popen(argv, env=env, stdout=stdout, stderr=subprocess.STDOUT
                                 if stdout is not subprocess.DEVNULL else subprocess.DEVNULL,
                                 stdin=stdin, start_new_session=True, **kwargs)
        self.children.append(child)
        return child

    def stop(self, child, timeout=3.0):
        if child.poll() is None:
            try:
                os.killpg(child.pid, signal.SIGTERM)
                child.wait(timeout)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(child.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                child.wait()
        else:
            # a group leader that exited may leave members (a launched URL handler)
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if child in self.children:
            self.children.remove(child)

    def stop_all(self):
        for child in reversed(list(self.children)):
            self.stop(child)


def wait_until(predicate, timeout, step=0.2):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(step)


# ---- dbus-monitor's record ----

HEADER = re.compile(r"^(method call|method return|signal|error) time=\S+ sender=(\S+) -> "
                    r"destination=(.+?) serial=(\d+)(?: reply_serial=(\d+))?"
                    r"(?: path=([^;]*); interface=([^;]*); member=(\S+))?")
ARG = re.compile(r'^\s*(?:variant\s+)?(string|uint32|int32|byte|boolean|int64) "?(.*?)"?$')


@dataclass
class Message:
    kind: str
    sender: str
    destination: str
    serial: int
    reply_serial: int
    member: str
    lines: list

    def values(self):
        return [m.group(2) for m in (ARG.match(line) for line in self.lines) if m]

    def actions(self):
        """The actions array of a Notify call: [key, label, key, label, ...]."""
        inside, found = False, []
        for line in self.lines:
            if not inside and line == "   array [":
                inside = True
            elif inside and line == "   ]":
                break
            elif inside:
                m = ARG.match(line)
                if m:
                    found.append(m.group(2))
        return found


class Monitor:
    """dbus-monitor of the private bus, read back as messages."""

    def __init__(self, processes, env, path):
        self.path = path
        self.file = open(path, "w")
        # line-buffered: the record is read while the run goes on
        self.child = processes.start(["stdbuf", "-oL", "dbus-monitor", "--session"], env,
                                     stdout=self.file)

    def messages(self):
        messages, current = [], None
        for line in self.path.read_text(errors="replace").splitlines():
            m = HEADER.match(line)
            if m:
                current = Message(m.group(1), m.group(2), m.group(3), int(m.group(4)),
                                  int(m.group(5) or 0), m.group(8) or "", [])
                messages.append(current)
            elif current is not None:
                current.lines.append(line)
        return messages

    def notifications(self):
        """Each Notify call with the id the server answered: [(id, call)]."""
        messages = self.messages()
        replies = {(m.destination, m.reply_serial): m for m in messages if m.kind == "method return"}
        found = []
        for call in messages:
            if call.kind == "method call" and call.member == "Notify":
                reply = replies.get((call.sender, call.serial))
                if reply and reply.values():
                    found.append((int(reply.values()[0]), call))
        return found

    def notification_with_hint(self, occurrence):
        """The server's id and the Notify call of the last popup carrying this occurrence id."""
        matching = [(nid, call) for nid, call in self.notifications() if occurrence in call.values()]
        return matching[-1] if matching else (None, None)

    def events_for(self, nid):
        """ActionInvoked keys, NotificationClosed reasons and CloseNotification calls for an id."""
        events = []
        for m in self.messages():
            values = m.values()
            if not values or values[0] != str(nid):
                continue
            if m.kind == "signal" and m.member == "ActionInvoked":
                events.append(("ActionInvoked", values[1]))
            elif m.kind == "signal" and m.member == "NotificationClosed":
                events.append(("NotificationClosed", int(values[1])))
            elif m.kind == "method call" and m.member == "CloseNotification":
                events.append(("CloseNotification", m.sender))
        # a signal sent to its client and seen once per destination still counts once
        return list(dict.fromkeys(events))


# ---- one server's session ----

class Session:
    """Xvfb, private buses, the private home, the URL handler, the monitor and one server."""

    def __init__(self, server, binary, output, processes):
        self.server, self.binary, self.output, self.processes = server, binary, output, processes
        self.tmp = Path(tempfile.mkdtemp(prefix=f"desktop-matrix-{server.name}-"))
        self.reached = self.tmp / "reached.txt"
        self.reached.touch()
        self.env = self.private_env()
        self.start_display()
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.start_bus("session")
        self.env["DBUS_SYSTEM_BUS_ADDRESS"] = self.start_bus("system")
        self.install_url_handler()
        self.monitor = Monitor(processes, self.env, self.tmp / "monitor.log")
        self.server_log = open(self.tmp / "server.log", "w")
        for name, text in server.home_files.items():
            path = Path(self.env["HOME"]) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        server_env = {**self.env, **server.env}
        self.server_process = processes.start(self.server_command(), server_env,
                                              stdout=self.server_log)
        self.wait_for_name(server.bus_name)
        if server.companion:
            processes.start(server.companion, server_env, stdout=self.server_log)
            self.wait_for_name(NOTIFICATIONS)
        self.rest_pointer()
        if server.banner_column:
            self.empty_column = self.leave_start_screen() if server.start_keys \
                else self.settled_column()

    def wait_for_name(self, name):
        # GNOME Shell takes a few seconds on a loaded machine
        if not wait_until(lambda: self.name_has_owner(name), 20):
            raise RuntimeError(f"{self.server.name} did not take {name} "
                               f"(log: {self.tmp / 'server.log'})")

    def private_env(self):
        home = self.tmp / "home"
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("XDG_", "DBUS_", "DISPLAY", "WAYLAND"))}
        env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                   XDG_DATA_HOME=str(home / ".local/share"), XDG_STATE_HOME=str(home / ".local/state"),
                   XDG_CACHE_HOME=str(home / ".cache"), XDG_RUNTIME_DIR=str(self.tmp / "run"),
                   NO_AT_BRIDGE="1", LANG="C.UTF-8")
        for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME",
                    "XDG_RUNTIME_DIR"):
            Path(env[key]).mkdir(parents=True, exist_ok=True)
        os.chmod(env["XDG_RUNTIME_DIR"], 0o700)
        return env

    def start_display(self):
        self.env["DISPLAY"] = start_xvfb(
            lambda argv, fds: self.processes.start(argv, self.env, pass_fds=fds))

    def start_bus(self, kind):
        """A bus of this kind (session or system) that starts no services; its address."""
        services = self.tmp / "no-services"
        services.mkdir(exist_ok=True)
        config = self.tmp / f"{kind}-bus.conf"
        config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>{kind}</type>
  <listen>unix:tmpdir={self.tmp}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
""")
        bus = self.processes.start(["dbus-daemon", f"--config-file={config}", "--nofork",
                                    "--print-address=1"], self.env, stdout=subprocess.PIPE)
        address = bus.stdout.readline().decode().strip()
        if not address:
            raise RuntimeError(f"the {kind} dbus-daemon did not start")
        return address

    def install_url_handler(self):
        handler = self.tmp / "url-handler"
        handler.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{self.reached}"\n')
        handler.chmod(0o755)
        applications = Path(self.env["XDG_DATA_HOME"]) / "applications"
        applications.mkdir(parents=True)
        (applications / "nstest-handler.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=URL recorder\nNoDisplay=true\n"
            f"Exec={handler} %u\nMimeType=x-scheme-handler/{TEST_SCHEME};x-scheme-handler/https;\n")
        (Path(self.env["XDG_CONFIG_HOME"]) / "mimeapps.list").write_text(
            f"[Default Applications]\nx-scheme-handler/{TEST_SCHEME}=nstest-handler.desktop\n"
            "x-scheme-handler/https=nstest-handler.desktop\n")
        for scheme in (TEST_SCHEME, "https"):
            answer = self.run(["gio", "mime", f"x-scheme-handler/{scheme}"]).stdout
            if "nstest-handler.desktop" not in answer.splitlines()[0]:
                raise RuntimeError(f"the URL handler is not the default for {scheme}: {answer}")

    def server_command(self):
        if self.server.name != "dunst":
            return self.server.command
        return self.server.command + ["-config", str(self.write_dunstrc())]

    def write_dunstrc(self):
        """The packaged dunstrc with a readable font, a stand-in dmenu, and no idle pause."""
        self.menu_input = self.tmp / "menu.txt"
        self.menu_pick = self.tmp / "menu-pick.txt"
        dmenu = self.tmp / "dmenu"
        dmenu.write_text("#!/bin/sh\n# dunst's context menu: keeps the lines, picks the wanted one\n"
                         f'tee "{self.menu_input}" | grep -m1 -F -e "$(cat "{self.menu_pick}")"\n')
        dmenu.chmod(0o755)
        text = Path("/etc/xdg/dunst/dunstrc").read_text()
        text = re.sub(r"(?m)^(\s*)font = .*$", r"\1font = DejaVu Sans 10", text)
        text = re.sub(r"(?m)^(\s*)dmenu = .*$", rf"\1dmenu = {dmenu} -p dunst:", text)
        text = re.sub(r"(?m)^(\s*)idle_threshold = .*$", r"\1idle_threshold = 0", text)
        path = self.tmp / "dunstrc"
        path.write_text(text)
        return path

    # -- tools --

    def run(self, argv, timeout=20, **kwargs):
        return subprocess.run(argv, env=self.env, capture_output=True, text=True,
                              timeout=timeout, **kwargs)

    def gdbus_notifications(self, method, *args, destination=NOTIFICATIONS):
        return self.run(["gdbus", "call", "--session", "--dest", destination,
                         "--object-path", "/org/freedesktop/Notifications",
                         "--method", f"org.freedesktop.Notifications.{method}", *args]).stdout.strip()

    def name_has_owner(self, name):
        answer = self.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                           "--object-path", "/org/freedesktop/DBus", "--method",
                           "org.freedesktop.DBus.NameHasOwner", name])
        return "true" in answer.stdout

    def start_notify_sched(self, name, argv):
        log = open(self.tmp / f"{name}.out", "w")
        child = self.processes.start([str(self.binary), *argv], self.env, stdout=log)
        child.log_path = self.tmp / f"{name}.out"
        return child

    @staticmethod
    def output_of(child):
        return child.log_path.read_text(errors="replace")

    def delivered_id(self, child, timeout=10):
        found = wait_until(lambda: re.search(r"^delivered: (\S+)", self.output_of(child), re.M),
                           timeout)
        return found.group(1) if found else None

    def popup_windows(self):
        """Visible top-level windows other than the root: (id, x, y, width, height); on a
        server drawing in its own stage, the banner in its column, if there is one."""
        if self.server.banner_column:
            box = self.banner_box()
            return [("banner", *box)] if box else []
        ids = self.run(["xdotool", "search", "--maxdepth", "1", "--onlyvisible", "--name", ""]).stdout
        windows = []
        for wid in ids.split():
            geometry = self.run(["xdotool", "getwindowgeometry", "--shell", wid]).stdout
            values = dict(line.split("=", 1) for line in geometry.split() if "=" in line)
            box = tuple(int(values.get(key, 0)) for key in ("X", "Y", "WIDTH", "HEIGHT"))
            if box[2:] != SCREEN and box[2] > 40 and box[3] > 20:
                windows.append((wid, *box))
        return windows

    def column_pixels(self):
        """The banner column as it is on screen: rows of RGB bytes."""
        left, top, width, height = self.server.banner_column
        ppm = subprocess.run(["sh", "-c", "xwd -root -silent | xwdtopnm 2>/dev/null | pnmcut "
                              f"-left {left} -top {top} -width {width} -height {height}"],
                             env=self.env, capture_output=True, timeout=20).stdout
        header = re.match(rb"P6\s+\d+\s+\d+\s+\d+\s", ppm)
        if not header:
            raise RuntimeError(f"no screenshot of display {self.env['DISPLAY']}")
        pixels = ppm[header.end():]
        return [pixels[row * width * 3:(row + 1) * width * 3] for row in range(height)]

    def settled_column(self):
        """The banner column once it stopped changing (the overview's exit is animated)."""
        previous = self.column_pixels()
        for _ in range(20):
            time.sleep(0.5)
            current = self.column_pixels()
            if current == previous:
                return current
            previous = current
        raise RuntimeError(f"{self.server.name}: the top of the screen did not settle")

    def leave_start_screen(self):
        """The empty banner column, once `start_keys` left the screen the server starts with
        (GNOME Shell's overview, which misses a key pressed during its start-up animation, so
        they are pressed until the column changes) and a click dismissed each banner the server
        showed of its own (GNOME Shell's warning that it runs as root)."""
        column = self.settled_column()
        for _ in range(5):
            self.run(["xdotool", "key", *self.server.start_keys])
            start_screen, column = column, self.settled_column()
            if column != start_screen:
                break
        else:
            raise RuntimeError(f"{self.server.name}: {' '.join(self.server.start_keys)} did not "
                               "change the top of the screen")
        left, top, width, _ = self.server.banner_column
        for _ in range(5):
            self.run(["xdotool", "mousemove", str(left + width // 2), str(top + 30), "click", "1"])
            self.rest_pointer()
            shown, column = column, self.settled_column()
            if column == shown:
                return column
        raise RuntimeError(f"{self.server.name}: its own banners stayed at the top of the screen")

    def banner_box(self):
        """(x, y, width, height) of what differs from the empty column, or None."""
        rows, xs = [], []
        for y, (row, empty) in enumerate(zip(self.column_pixels(), self.empty_column)):
            if row != empty:
                rows.append(y)
                changed = [i for i in range(0, len(row), 3) if row[i:i + 3] != empty[i:i + 3]]
                xs += [changed[0] // 3, changed[-1] // 3]
        if not rows:
            return None
        left, top = self.server.banner_column[:2]
        return (left + min(xs), top + rows[0], max(xs) - min(xs) + 1, rows[-1] - rows[0] + 1)

    def shown_popups(self):
        """The popup windows once one is shown and drawn: a window is mapped before its server
        draws into it (Plasma also moves it once it knows its height)."""
        if wait_until(self.popup_windows, 5):
            time.sleep(0.5)
        return self.popup_windows()

    def show_buttons(self):
        """GNOME Shell shows a banner's buttons (at once only on a critical one) when the
        pointer is on it: puts it there. Other servers show them anyway."""
        box = self.server.banner_column and wait_until(self.banner_box, 5)
        if box:
            self.run(["xdotool", "mousemove", str(box[0] + box[2] // 2), str(box[1] + 30)])
            time.sleep(0.8)  # the banner grows, animated

    def screenshot(self, scenario):
        """SERVER-SCENARIO.png: the screen cut to the popups (or the whole screen without any)."""
        path = self.output / f"{self.server.name}-{scenario}.png"
        windows = self.popup_windows()
        pipeline = "xwd -root -silent | xwdtopnm 2>/dev/null"
        if windows:
            left = max(0, min(w[1] for w in windows) - 10)
            top = max(0, min(w[2] for w in windows) - 10)
            right = min(SCREEN[0], max(w[1] + w[3] for w in windows) + 10)
            bottom = min(SCREEN[1], max(w[2] + w[4] for w in windows) + 10)
            pipeline += f" | pnmcut -left {left} -top {top} -width {right - left} -height {bottom - top}"
        self.run(["sh", "-c", f"{pipeline} | pnmtopng > {shlex.quote(str(path))}"])
        return str(path)

    def rest_pointer(self):
        self.run(["xdotool", "mousemove", *map(str, POINTER_REST)])

    def click_button(self, layout):
        """Clicks where the server draws the action button of this layout; the point clicked."""
        self.show_buttons()
        windows = wait_until(self.popup_windows, 5)
        if not windows:
            return None
        _, x, y, width, height = windows[-1]
        dx, dy = self.server.buttons[layout]
        point = (x + (dx if dx >= 0 else width + dx), y + (dy if dy >= 0 else height + dy))
        self.run(["xdotool", "mousemove", str(point[0]), str(point[1]), "click", "1"])
        time.sleep(0.3)
        self.rest_pointer()
        return point

    def pick_from_menu(self, label):
        """dunst: opens the context menu of the newest popup and picks the line with label."""
        self.menu_pick.write_text(label)
        self.menu_input.unlink(missing_ok=True)
        answer = self.run(["dunstctl", "context"])
        # dunst runs the menu in the background: wait until it has read the lines
        return answer.returncode == 0 and wait_until(
            lambda: self.menu_input.exists() and self.menu_input.read_text().endswith("]"), 5)

    def invoke(self, layout, label):
        if self.server.uses_menu:
            return "dunstctl context, menu line with " + repr(label) if self.pick_from_menu(label) \
                else None
        point = self.click_button(layout)
        return f"click at {point[0]},{point[1]}" if point else None

    def close_all(self):
        """Closes every popup still on the server so the next scenario starts on a clear screen."""
        for nid, _ in self.monitor.notifications():
            if not any(e[0] == "NotificationClosed" for e in self.monitor.events_for(nid)):
                # on the server itself: GNOME's org.freedesktop.Notifications closes a popup
                # only for the client that sent it
                self.gdbus_notifications("CloseNotification", str(nid),
                                         destination=self.server.bus_name)
        wait_until(lambda: not self.popup_windows(), 5)

    def reached_urls(self):
        return self.reached.read_text().split()




def package_version(package):
    answer = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                            capture_output=True, text=True)
    return answer.stdout or "not installed"
