import CLibnotify
import NotifySchedCore

/// The process's connection to the session bus (GIO's one shared connection), reached on first
/// use: the names notify-sched claims and watches, and the bus's own calls. Callbacks come
/// from the main loop (`MainLoop`). It is not `Sendable`.
public final class SessionBus {
    private var connection: OpaquePointer?
    /// The name watches this bus's owner added, which go with it.
    private var watches: [guint] = []

    public init() {}

    deinit {
        for watch in watches { g_bus_unwatch_name(watch) }
        if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
    }

    /// The connection, reached now if it was not yet.
    ///
    /// - Throws: `DesktopError` with `.noSessionBus` when there is no session bus.
    func connected() throws(DesktopError) -> OpaquePointer {
        if let connection { return connection }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw DesktopError(.noSessionBus, "cannot reach the session bus: \(GLibValues.take(error))")
        }
        connection = bus
        return bus
    }

    /// The bus's GUID, which no other bus and no later session shares; nil before it is reached.
    var guid: String? {
        connection.flatMap { g_dbus_connection_get_guid($0) }.map { String(cString: $0) }
    }

    /// Asks the session bus for `name` without queueing for it.
    ///
    /// - Returns: false when another process owns the name.
    /// - Throws: `DesktopError` when there is no session bus.
    public func claim(_ name: String) throws(DesktopError) -> Bool {
        let connection = try connected()
        // DBUS_NAME_FLAG_DO_NOT_QUEUE: fail at once rather than wait for the owner to leave.
        var children = [g_variant_new_string(name), g_variant_new_uint32(4)]
        let parameters = g_variant_new_tuple(&children, 2)
        var error: UnsafeMutablePointer<GError>?
        guard
            let reply = g_dbus_connection_call_sync(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        else {
            throw DesktopError(.noSessionBus, "cannot claim \(name) on the session bus: \(GLibValues.take(error))")
        }
        defer { g_variant_unref(reply) }
        let child = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(child) }
        // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER, or ALREADY_OWNER on a second claim.
        return [1, 4].contains(g_variant_get_uint32(child))
    }

    /// Sends whatever waits to go out on the bus (replies to calls, above all), at most for a
    /// second: the process is about to end. The connection is GIO's one per process, so this is
    /// also the connection `BusService` answers calls on.
    public func flush() {
        guard let connection else { return }
        _ = ServerCall.run(within: .seconds(1), { g_dbus_connection_flush_sync(connection, nil, nil) }, late: { _ in })
    }

    /// The unique name that owns `name` now, without starting anything; nil when nothing does.
    func owner(of name: String) -> String? {
        guard let connection else { return nil }
        var children = [g_variant_new_string(name)]
        let parameters = g_variant_new_tuple(&children, 1)
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
            parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil, nil)
        guard let reply else { return nil }
        defer { g_variant_unref(reply) }
        let child = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// Calls `appeared` with the owner's unique name each time `name` gets an owner (also when
    /// it has one now), and `vanished` each time it loses it, from the main loop, for as long as
    /// the bus lives.
    ///
    /// - Throws: `DesktopError` with `.noSessionBus` when there is no session bus.
    func watch(
        _ name: String, appeared: @escaping (String) -> Void, vanished: @escaping () -> Void
    ) throws(DesktopError) {
        let connection = try connected()
        let context = Unmanaged.passRetained(NameWatch(appeared: appeared, vanished: vanished)).toOpaque()
        watches.append(
            g_bus_watch_name_on_connection(
                connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
                { _, _, owner, context in
                    guard let context, let owner else { return }
                    Unmanaged<NameWatch>.fromOpaque(context).takeUnretainedValue().appeared(String(cString: owner))
                },
                { _, _, context in
                    guard let context else { return }
                    Unmanaged<NameWatch>.fromOpaque(context).takeUnretainedValue().vanished()
                }, context, { context in if let context { Unmanaged<NameWatch>.fromOpaque(context).release() } }))
    }
}

/// A name watch's callbacks, as GLib callback data.
private final class NameWatch {
    let appeared: (String) -> Void
    let vanished: () -> Void

    init(appeared: @escaping (String) -> Void, vanished: @escaping () -> Void) {
        self.appeared = appeared
        self.vanished = vanished
    }
}
