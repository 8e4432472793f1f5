/// Where the daemon's control interface is on the session bus, and what it declares: the one
/// place the names are written, for the daemon that serves it and the CLI that calls it.
public enum ControlInterface {
    /// The daemon's well-known name on the session bus: owning it makes it the only one.
    public static let busName = "org.notify_sched.Daemon"
    /// The path of its control object.
    public static let objectPath = "/org/notify_sched/Daemon"
    /// The interface of its control object.
    public static let interface = "org.notify_sched.Daemon1"

    /// The control interface, as D-Bus introspection XML (`gdbus introspect --session --dest
    /// org.notify_sched.Daemon --object-path /org/notify_sched/Daemon` shows it).
    public static let introspection = """
        <node>
          <interface name="org.notify_sched.Daemon1">
            <!-- Posts a named event (iSmartNews patterns): returns what it showed, in words. -->
            <method name="PostEvent">
              <arg name="name" type="s" direction="in"/>
              <arg name="result" type="s" direction="out"/>
            </method>
            <!-- A page of the schedule as JSON, as the list command prints it with its json flag: an
                 array of the entries filter keeps, sorted by next occurrence, from position offset on,
                 at most limit (1 to 1000) and at most about 1 MiB of them (always one when any is left);
                 upcoming occurrences per entry (1 to 1000), each with its last delivery and state from
                 the ledger. filter is empty, or a JSON object of the arrays sources (paths or URLs),
                 states and ids (shell patterns). total is how many entries the filter keeps. -->
            <method name="List">
              <arg name="upcoming" type="u" direction="in"/>
              <arg name="offset" type="u" direction="in"/>
              <arg name="limit" type="u" direction="in"/>
              <arg name="filter" type="s" direction="in"/>
              <arg name="listing" type="s" direction="out"/>
              <arg name="total" type="u" direction="out"/>
            </method>
            <!-- The daemon, the notification server and the sources with their health, as a JSON object. -->
            <method name="Status">
              <arg name="status" type="s" direction="out"/>
            </method>
            <!-- handleLocalNotification for a delivered occurrence: id is its occurrence id, or an
                 entry id for the entry's latest delivered occurrence. Answers once handled (after
                 the prompt when show_alert): status is handled, failed or unknown (the id names no
                 occurrence notify-sched delivered, or an entry of several sources: nothing was
                 done); report is what happened, a line each, or why the id names none. -->
            <method name="Handle">
              <arg name="id" type="s" direction="in"/>
              <arg name="show_alert" type="b" direction="in"/>
              <arg name="status" type="s" direction="out"/>
              <arg name="report" type="s" direction="out"/>
            </method>
            <!-- Snoozes a delivered native or ZBiM occurrence: "Remind Me Later" at once, the
                 occurrence coming back span (a duration: 10min, 1h, 2d) from now, or at 09:00 on
                 the next day for tomorrow, instead of after the remind period. Answers as Handle
                 does; failed for an iNotify or iSmartNews message, whose reminders follow their
                 library. -->
            <method name="Snooze">
              <arg name="id" type="s" direction="in"/>
              <arg name="span" type="s" direction="in"/>
              <arg name="status" type="s" direction="out"/>
              <arg name="report" type="s" direction="out"/>
            </method>
            <!-- Shows a test popup through the scheduled path, after delay_seconds. An empty
                 action_url means no action, an empty action_label the default label; urgency is
                 low, normal or critical; icon, sound (a sound-theme name) and image (an absolute
                 path or file:// URI) are left out when empty; timeout is a duration (90s, 5min;
                 0 for until it is closed), empty for the server's default; markup says the body
                 is markup. Answers once it is shown, or with wait once it is acted on or closed:
                 id is the occurrence id, status delivered, handled or failed, report what happened
                 (the error when failed). -->
            <method name="Test">
              <arg name="title" type="s" direction="in"/>
              <arg name="body" type="s" direction="in"/>
              <arg name="action_label" type="s" direction="in"/>
              <arg name="action_url" type="s" direction="in"/>
              <arg name="urgency" type="s" direction="in"/>
              <arg name="icon" type="s" direction="in"/>
              <arg name="sound" type="s" direction="in"/>
              <arg name="image" type="s" direction="in"/>
              <arg name="timeout" type="s" direction="in"/>
              <arg name="markup" type="b" direction="in"/>
              <arg name="delay_seconds" type="u" direction="in"/>
              <arg name="wait" type="b" direction="in"/>
              <arg name="id" type="s" direction="out"/>
              <arg name="status" type="s" direction="out"/>
              <arg name="report" type="s" direction="out"/>
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
}
