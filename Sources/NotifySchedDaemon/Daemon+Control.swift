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
          </interface>
        </node>
        """
    /// Exports the control object on the session bus, answering the CLI's calls on the loop.
    func exportControlObject() throws(DaemonError) {
        do {
            _ = try BusService(path: Self.objectPath, introspection: Self.introspection) {
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
