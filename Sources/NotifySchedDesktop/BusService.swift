import CLibnotify
import NotifySchedCore

/// A D-Bus object the daemon exports on the session bus, whose methods take and return strings.
///
/// Calls arrive on the GLib main loop, like everything else the daemon does. A handler gets the
/// method's name and string arguments and returns string results, or throws to send a D-Bus
/// error back (`org.notify_sched.Error.Failed` with the error's description).
public final class BusService {
    /// Handles one call: method name and its string arguments in, string results out.
    public typealias Handler = (_ method: String, _ arguments: [String]) throws -> [String]

    /// Handles one call whose answer comes later, on the loop: `reply` sends it, once.
    public typealias DeferredHandler = (_ arguments: [String], _ reply: @escaping ([String]) -> Void) -> Void

    private let handler: Handler
    private let deferred: [String: DeferredHandler]

    /// Exports an object at `path` implementing the interface described by `introspection`
    /// (D-Bus introspection XML with one interface), on the session bus.
    ///
    /// - Parameter deferred: Methods answered later rather than by `handler` (work off the loop).
    /// - Throws: `DesktopError` when there is no session bus or the XML or path is refused.
    public init(
        path: String, introspection: String, deferred: [String: DeferredHandler] = [:],
        handler: @escaping Handler
    ) throws {
        self.handler = handler
        self.deferred = deferred
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw DesktopError(.noSessionBus, "cannot reach the session bus: \(GLibValues.take(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        guard let node = g_dbus_node_info_new_for_xml(introspection, &error) else {
            throw DesktopError(.noSessionBus, "the bus interface is malformed: \(GLibValues.take(error))")
        }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, context in
            guard let context, let method, let invocation else { return }
            Unmanaged<BusService>.fromOpaque(context).takeUnretainedValue()
                .answer(String(cString: method), parameters, invocation)
        }
        // The registration keeps the service alive; GLib releases it when the object goes away.
        let context = Unmanaged.passRetained(self).toOpaque()
        let registration = g_dbus_connection_register_object(
            bus, path, node.pointee.interfaces[0], &vtable, context,
            { context in if let context { Unmanaged<BusService>.fromOpaque(context).release() } }, &error)
        guard registration != 0 else {
            Unmanaged<BusService>.fromOpaque(context).release()
            throw DesktopError(.noSessionBus, "cannot export \(path) on the session bus: \(GLibValues.take(error))")
        }
    }

    private func answer(
        _ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer
    ) {
        var arguments: [String] = []
        if let parameters {
            for index in 0..<g_variant_n_children(parameters) {
                let child = g_variant_get_child_value(parameters, index)
                if g_variant_classify(child) == G_VARIANT_CLASS_STRING {
                    arguments.append(String(cString: g_variant_get_string(child, nil)))
                }
                g_variant_unref(child)
            }
        }
        if let deferred = deferred[method] {
            // GDBus leaves the invocation to the handler until it is answered.
            deferred(arguments) { results in
                var children = results.map { g_variant_new_string($0) }
                g_dbus_method_invocation_return_value(
                    invocation, g_variant_new_tuple(&children, gsize(children.count)))
            }
            return
        }
        do {
            var children = try handler(method, arguments).map { g_variant_new_string($0) }
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&children, gsize(children.count)))
        } catch {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.notify_sched.Error.Failed", "\(error)")
        }
    }

    /// Calls `method` of the object at `path` owned by `name` with string arguments, and returns
    /// its string results. Does not start the daemon when nothing owns `name`.
    ///
    /// - Throws: `DesktopError` with `.noSessionBus` when there is no bus, or `.noService` when
    ///   nothing owns `name` or the call fails (the message says why).
    public static func call(
        _ name: String, path: String, interface: String, method: String, arguments: [String], timeout: TimeSpan
    ) throws -> [String] {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw DesktopError(.noSessionBus, "cannot reach the session bus: \(GLibValues.take(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var children = arguments.map { g_variant_new_string($0) }
        let parameters = g_variant_new_tuple(&children, gsize(children.count))
        guard
            let reply = g_dbus_connection_call_sync(
                bus, name, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
                gint(clamping: timeout.microseconds / 1000), nil, &error)
        else {
            if let error, g_dbus_error_is_remote_error(error) != 0 {
                let remote = GLibValues.take(g_dbus_error_get_remote_error(error))
                if remote == "org.notify_sched.Error.Failed" {
                    g_dbus_error_strip_remote_error(error)
                    throw DesktopError(.callFailed, GLibValues.take(error))
                }
            }
            throw DesktopError(.noService, "\(name) does not answer on the session bus: \(GLibValues.take(error))")
        }
        defer { g_variant_unref(reply) }
        return (0..<g_variant_n_children(reply)).map { index in
            let child = g_variant_get_child_value(reply, index)
            defer { g_variant_unref(child) }
            return String(cString: g_variant_get_string(child, nil))
        }
    }
}
