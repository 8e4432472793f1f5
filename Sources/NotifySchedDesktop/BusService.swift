import CLibnotify
import NotifySchedControl
import NotifySchedCore

extension ControlValue {
    /// The value as a `GVariant` with a floating reference, for a reply or a call.
    fileprivate var variant: OpaquePointer? {
        switch self {
        case .string(let text): g_variant_new_string(text)
        case .boolean(let value): g_variant_new_boolean(value ? 1 : 0)
        case .unsigned(let value): g_variant_new_uint32(value)
        }
    }

    /// Reads a `GVariant` of one of the three types; nil for any other type.
    fileprivate init?(_ variant: OpaquePointer) {
        switch g_variant_classify(variant) {
        case G_VARIANT_CLASS_STRING: self = .string(String(cString: g_variant_get_string(variant, nil)))
        case G_VARIANT_CLASS_BOOLEAN: self = .boolean(g_variant_get_boolean(variant) != 0)
        case G_VARIANT_CLASS_UINT32: self = .unsigned(g_variant_get_uint32(variant))
        default: return nil
        }
    }
}

/// A method call that arrived on an exported object, answered once: at once by returning
/// results from the handler, or later with `reply(_:)` or `fail(_:)`.
public final class BusCall {
    /// The method's name.
    public let method: String
    /// Its arguments, in order.
    public let arguments: [ControlValue]
    private var invocation: OpaquePointer?

    fileprivate init(method: String, arguments: [ControlValue], invocation: OpaquePointer) {
        self.method = method
        self.arguments = arguments
        // GDBus hands the invocation over to the handler, which must complete it exactly once.
        self.invocation = invocation
    }

    /// Sends `results` as the method's out arguments. Later answers are ignored.
    public func reply(_ results: [ControlValue]) {
        guard let invocation else { return }
        self.invocation = nil
        var children = results.map(\.variant)
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&children, gsize(children.count)))
    }

    /// Sends `reply`'s out arguments (`ControlReply.values`). Later answers are ignored.
    public func reply(_ reply: ControlReply) {
        self.reply(reply.values)
    }

    /// Sends a D-Bus error (`org.notify_sched.Error.Failed`) with `error`'s description.
    /// Later answers are ignored.
    public func fail(_ error: any Error) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_dbus_error(invocation, BusService.failedError, "\(error)")
    }

    deinit {
        // A call dropped without an answer still gets one, so the caller does not wait for its timeout.
        if let invocation {
            g_dbus_method_invocation_return_dbus_error(invocation, BusService.failedError, "the call was dropped")
        }
    }
}

/// A D-Bus object the daemon exports on the session bus.
///
/// Calls arrive on the GLib main loop, like everything else the daemon does. The handler gets
/// each call and returns its results, or nil when it keeps the call to answer later (a prompt
/// the user has not answered yet); a thrown error goes back as `org.notify_sched.Error.Failed`
/// with the error's description.
public final class BusService {
    /// Handles one call: its results, or nil when `call` is answered later.
    public typealias Handler = (_ call: BusCall) throws -> [ControlValue]?

    /// The D-Bus error name of a failed call.
    static let failedError = "org.notify_sched.Error.Failed"

    private let handler: Handler
    /// The session bus connection the object is exported on. The service holds a reference: an
    /// exported object lives only as long as its connection, and the shared session connection
    /// goes away with its last reference.
    private let connection: OpaquePointer
    /// The export's id on the connection.
    private var registration: guint = 0

    /// Exports an object at `path` implementing the interface described by `introspection`
    /// (D-Bus introspection XML with one interface), on the session bus.
    ///
    /// - Throws: `DesktopError` when there is no session bus or the XML or path is refused.
    public init(path: String, introspection: String, handler: @escaping Handler) throws {
        self.handler = handler
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw DesktopError(.noSessionBus, "cannot reach the session bus: \(GLibValues.take(error))")
        }
        connection = bus
        guard let node = g_dbus_node_info_new_for_xml(introspection, &error) else {
            g_object_unref(UnsafeMutableRawPointer(bus))
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
        registration = g_dbus_connection_register_object(
            bus, path, node.pointee.interfaces[0], &vtable, context,
            { context in if let context { Unmanaged<BusService>.fromOpaque(context).release() } }, &error)
        guard registration != 0 else {
            Unmanaged<BusService>.fromOpaque(context).release()
            throw DesktopError(.noSessionBus, "cannot export \(path) on the session bus: \(GLibValues.take(error))")
        }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Takes the object off the bus (the name the process owns stays): calls to its path fail
    /// from then on, and another object may be exported there.
    public func unexport() {
        guard registration != 0 else { return }
        g_dbus_connection_unregister_object(connection, registration)
        registration = 0
    }

    private func answer(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer) {
        let call = BusCall(method: method, arguments: Self.values(of: parameters), invocation: invocation)
        do {
            if let results = try handler(call) { call.reply(results) }
        } catch {
            call.fail(error)
        }
    }

    /// The children of a tuple that are one of `ControlValue`'s types.
    private static func values(of tuple: OpaquePointer?) -> [ControlValue] {
        guard let tuple else { return [] }
        return (0..<g_variant_n_children(tuple)).compactMap { index in
            let child = g_variant_get_child_value(tuple, index)
            defer { g_variant_unref(child) }
            return child.flatMap(ControlValue.init)
        }
    }

    /// Calls `method` of the object at `path` owned by `name` and returns its results (those of
    /// `ControlValue`'s types). A nil `timeout` waits as long as the call takes. Does not start
    /// anything when nothing owns `name` (no D-Bus activation).
    ///
    /// - Throws: `DesktopError` with `.noSessionBus` when there is no bus, `.noService` when
    ///   nothing owns `name`, or `.callFailed` when the call failed or timed out (the message
    ///   says why).
    public static func call(
        _ name: String, path: String, interface: String, method: String, arguments: [ControlValue], timeout: TimeSpan?
    ) throws -> [ControlValue] {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw DesktopError(.noSessionBus, "cannot reach the session bus: \(GLibValues.take(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var children = arguments.map(\.variant)
        let parameters = g_variant_new_tuple(&children, gsize(children.count))
        guard
            let reply = g_dbus_connection_call_sync(
                bus, name, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
                timeout.map { gint(clamping: $0.microseconds / 1000) } ?? G_MAXINT, nil, &error)
        else {
            let remote =
                error.flatMap { g_dbus_error_is_remote_error($0) != 0 ? g_dbus_error_get_remote_error($0) : nil }
                .map { GLibValues.take($0) }
            if let error, remote != nil { g_dbus_error_strip_remote_error(error) }
            let message = GLibValues.take(error)
            switch remote {
            case failedError?:
                throw DesktopError(.callFailed, message)
            case "org.freedesktop.DBus.Error.ServiceUnknown"?, "org.freedesktop.DBus.Error.NameHasNoOwner"?:
                throw DesktopError(.noService, "nothing owns \(name) on the session bus: \(message)")
            case "org.freedesktop.DBus.Error.NoReply"?:
                throw DesktopError(.noReply, "\(name) did not answer \(method): \(message)")
            default:
                throw DesktopError(.callFailed, "\(name) did not answer \(method): \(message)")
            }
        }
        defer { g_variant_unref(reply) }
        return values(of: reply)
    }
}
