import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// The control interface on the session bus: what the CLI calls when a daemon runs.
extension Daemon {
    /// The control interface, as D-Bus introspection XML.
    static let introspection = """
        <node>
          <interface name="org.notify_sched.Daemon1">
            <!-- Posts a named event (iSmartNews patterns): returns what it showed, in words. -->
            <method name="PostEvent">
              <arg name="name" type="s" direction="in"/>
              <arg name="result" type="s" direction="out"/>
            </method>
            <!-- Checks every source now, ignoring periods; answers once all are checked: status is
                 synced, or failed when a source failed; report says what changed, a line each. -->
            <method name="Sync">
              <arg name="status" type="s" direction="out"/>
              <arg name="report" type="s" direction="out"/>
            </method>
          </interface>
        </node>
        """
    /// Exports the control object on the session bus, answering the CLI's calls on the loop.
    func exportControlObject() throws(DaemonError) {
        do {
            _ = try BusService(
                path: Self.objectPath, introspection: Self.introspection,
                deferred: ["Sync": { [unowned self] _, reply in self.sync(reply: reply) }]
            ) {
                [unowned self] method, arguments in
                guard method == "PostEvent", let name = arguments.first, !name.isEmpty else {
                    throw DaemonError(.unavailable, "unknown call \(method)")
                }
                return [self.postEvent(name, at: WallClock.now())]
            }
        } catch {
            throw DaemonError(.unavailable, "\(error)")
        }
    }
}

extension Daemon {
    /// `Sync`: checks every source now and answers `(status, report)` once all are checked.
    func sync(reply: @escaping ([String]) -> Void) {
        syncSources { reports in
            reply([
                reports.contains(where: \.failed) ? "failed" : "synced",
                reports.flatMap(\.lines).joined(separator: "\n"),
            ])
        }
    }
}
