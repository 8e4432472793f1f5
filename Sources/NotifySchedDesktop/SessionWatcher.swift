import CLibnotify
import NotifySchedCore

/// Watches the session and the system for what the daemon reacts to besides the clock: a
/// resume from suspend, the screen being unlocked, and a change of the system's time zone.
/// Every callback runs on the GLib main loop.
///
/// - Resume: logind's `org.freedesktop.login1.Manager.PrepareForSleep(false)` on the system bus.
/// - Unlock: `ActiveChanged(false)` of the screen saver on the session bus, from
///   `org.gnome.ScreenSaver` (GNOME Shell) or `org.freedesktop.ScreenSaver` (Plasma's
///   locker; also xfce4-screensaver and others). logind's own `Session.Unlock` signal is not
///   used: it is a request to the locker, sent by `loginctl unlock-session`, not news that the
///   user unlocked, and it is addressed to a session object a user service is not part of.
/// - Zone: timedated's `Timezone` property (`PropertiesChanged` of
///   `org.freedesktop.timedate1`, which carries the new name), and `/etc/localtime` itself
///   through a `GFileMonitor`, for a zone changed without timedated.
///
/// The system bus is reached without blocking the loop; when there is none, or logind does
/// not run, `onStatus` says so in one line and the rest keeps working (a resume still shows up
/// as a clock change on the daemon's timer).
public final class SessionWatcher {
    /// The system resumed from suspend.
    public var onResume: () -> Void = {}
    /// The screen was unlocked (the screen saver went inactive).
    public var onUnlock: () -> Void = {}
    /// The system's zone changed: its new name when timedated said it, nil when only
    /// `/etc/localtime` changed (read it again).
    public var onZoneChange: (String?) -> Void = { _ in }
    /// One line about what is watched on the system bus, once it answered or failed.
    public var onStatus: (String) -> Void = { _ in }

    private var sessionBus: OpaquePointer?
    private var systemBus: OpaquePointer?
    private var subscriptions: [(bus: OpaquePointer, id: guint)] = []
    private var logindWatch: guint = 0
    private let files = FileWatcher()
    /// When the last unlock was reported (monotonic µs): a desktop that implements both
    /// screen-saver interfaces reports one unlock twice.
    private var lastUnlock: gint64 = 0
    /// Whether logind was last reported running.
    private var logindReported: Bool?

    /// The well-known names and paths watched.
    static let logindName = "org.freedesktop.login1"
    static let timedatedName = "org.freedesktop.timedate1"

    public init() {}

    deinit {
        for (bus, id) in subscriptions { g_dbus_connection_signal_unsubscribe(bus, id) }
        if logindWatch != 0 { g_bus_unwatch_name(logindWatch) }
        for bus in [sessionBus, systemBus] {
            if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
        }
    }

    /// Starts watching: the session bus and `localtimePath` at once, the system bus as soon as
    /// it answers.
    ///
    /// - Parameter localtimePath: The system zone link, `/etc/localtime` by default.
    public func start(localtimePath: String = "/etc/localtime") {
        if let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) {
            sessionBus = bus
            for (name, path) in [
                ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"),
                ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),
            ] {
                subscribe(bus, sender: name, interface: name, member: "ActiveChanged", path: path) {
                    watcher, parameters in
                    if Self.firstBoolean(parameters) == false { watcher.unlocked() }
                }
            }
        }
        files.watch(localtimePath) { [weak self] in self?.onZoneChange(nil) }
        let context = Unmanaged.passRetained(WeakWatcher(self)).toOpaque()
        g_bus_get(
            G_BUS_TYPE_SYSTEM, nil,
            { _, result, context in
                guard let context else { return }
                let box = Unmanaged<WeakWatcher>.fromOpaque(context).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let bus = g_bus_get_finish(result, &error)
                guard let watcher = box.watcher else {
                    if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
                    if let error { g_error_free(error) }
                    return
                }
                watcher.systemBusReady(bus, error: error)
            }, context)
    }

    private func systemBusReady(_ bus: OpaquePointer?, error: UnsafeMutablePointer<GError>?) {
        guard let bus else {
            onStatus(
                "no system bus (\(GLibValues.take(error))): a resume is seen as a clock change, the zone in "
                    + "/etc/localtime only")
            return
        }
        systemBus = bus
        subscribe(
            bus, sender: Self.logindName, interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep",
            path: "/org/freedesktop/login1"
        ) { watcher, parameters in
            if Self.firstBoolean(parameters) == false { watcher.onResume() }
        }
        subscribe(
            bus, sender: Self.timedatedName, interface: "org.freedesktop.DBus.Properties",
            member: "PropertiesChanged", path: "/org/freedesktop/timedate1", arg0: Self.timedatedName
        ) { watcher, parameters in
            switch Self.timezoneChange(parameters) {
            case .named(let name)?: watcher.onZoneChange(name)
            case .invalidated?: watcher.onZoneChange(nil)
            case nil: break
            }
        }
        let context = Unmanaged.passRetained(WeakWatcher(self)).toOpaque()
        // Reports at once whether logind runs; the subscriptions above are in place by then.
        logindWatch = g_bus_watch_name_on_connection(
            bus, Self.logindName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, context in
                guard let context else { return }
                Unmanaged<WeakWatcher>.fromOpaque(context).takeUnretainedValue().watcher?.logind(running: true)
            },
            { _, _, context in
                guard let context else { return }
                Unmanaged<WeakWatcher>.fromOpaque(context).takeUnretainedValue().watcher?.logind(running: false)
            }, context, { context in if let context { Unmanaged<WeakWatcher>.fromOpaque(context).release() } })
    }

    private func logind(running: Bool) {
        guard logindReported != running else { return }
        logindReported = running
        onStatus(
            running
                ? "on the system bus: watching logind (resume) and timedated (zone)"
                : "on the system bus: watching timedated (zone); logind does not run, so a resume shows up "
                    + "only as a clock change")
    }

    private func unlocked() {
        let now = g_get_monotonic_time()
        guard lastUnlock == 0 || now - lastUnlock > 2_000_000 else { return }
        lastUnlock = now
        onUnlock()
    }

    private func subscribe(
        _ bus: OpaquePointer, sender: String, interface: String, member: String, path: String, arg0: String? = nil,
        _ handler: @escaping (SessionWatcher, OpaquePointer) -> Void
    ) {
        let context = Unmanaged.passRetained(SignalHandler(self, handler)).toOpaque()
        let id = g_dbus_connection_signal_subscribe(
            bus, sender, interface, member, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, context in
                guard let context, let parameters else { return }
                Unmanaged<SignalHandler>.fromOpaque(context).takeUnretainedValue().handle(parameters)
            }, context, { context in if let context { Unmanaged<SignalHandler>.fromOpaque(context).release() } })
        subscriptions.append((bus, id))
    }

    /// The first argument of a signal, when it is a boolean.
    static func firstBoolean(_ parameters: OpaquePointer) -> Bool? {
        guard g_variant_n_children(parameters) > 0 else { return nil }
        let child = g_variant_get_child_value(parameters, 0)
        defer { g_variant_unref(child) }
        guard g_variant_classify(child) == G_VARIANT_CLASS_BOOLEAN else { return nil }
        return g_variant_get_boolean(child) != 0
    }

    /// What timedated's `PropertiesChanged` says of `Timezone`: nil when nothing.
    static func timezoneChange(_ parameters: OpaquePointer) -> ZoneChange? {
        guard g_variant_n_children(parameters) == 3 else { return nil }
        let changed = g_variant_get_child_value(parameters, 1)
        defer { g_variant_unref(changed) }
        if let value = g_variant_lookup_value(changed, "Timezone", nil) {
            defer { g_variant_unref(value) }
            guard g_variant_classify(value) == G_VARIANT_CLASS_STRING else { return nil }
            return .named(String(cString: g_variant_get_string(value, nil)))
        }
        let invalidated = g_variant_get_child_value(parameters, 2)
        defer { g_variant_unref(invalidated) }
        for index in 0..<g_variant_n_children(invalidated) {
            let name = g_variant_get_child_value(invalidated, index)
            defer { g_variant_unref(name) }
            if String(cString: g_variant_get_string(name, nil)) == "Timezone" { return .invalidated }
        }
        return nil
    }
}

/// A change of timedated's `Timezone` property.
enum ZoneChange {
    /// Its new value.
    case named(String)
    /// Changed, value not sent.
    case invalidated
}

/// The watcher as callback data, without keeping it alive.
private final class WeakWatcher {
    weak var watcher: SessionWatcher?
    init(_ watcher: SessionWatcher) { self.watcher = watcher }
}

/// One signal subscription's handler, holding the watcher weakly.
private final class SignalHandler {
    weak var watcher: SessionWatcher?
    let body: (SessionWatcher, OpaquePointer) -> Void

    init(_ watcher: SessionWatcher, _ body: @escaping (SessionWatcher, OpaquePointer) -> Void) {
        self.watcher = watcher
        self.body = body
    }

    func handle(_ parameters: OpaquePointer) {
        if let watcher { body(watcher, parameters) }
    }
}
