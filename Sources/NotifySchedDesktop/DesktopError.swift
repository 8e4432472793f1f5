import NotifySchedCore

/// An error from the desktop: the session bus, the notification server, the URL handlers.
public typealias DesktopError = CodedError<DesktopErrorDomain>

/// The domain of `DesktopError`'s codes.
public enum DesktopErrorDomain {}

extension ErrorCode where Domain == DesktopErrorDomain {
    /// There is no session bus to talk to.
    public static var noSessionBus: Self { Self(rawValue: "desktop.no-session-bus") }
    /// Nothing answers as `org.freedesktop.Notifications` on the session bus.
    public static var noServer: Self { Self(rawValue: "desktop.no-server") }
    /// The server did not take the popup.
    public static var showFailed: Self { Self(rawValue: "desktop.show-failed") }
    /// The server did not answer within the notifier's limit; the call may still go through later.
    public static var notAnswering: Self { Self(rawValue: "desktop.not-answering") }
    /// No handler opened the URL.
    public static var openFailed: Self { Self(rawValue: "desktop.open-failed") }
    /// Nothing owns a service's name on the session bus, or the call did not get through.
    public static var noService: Self { Self(rawValue: "desktop.no-service") }
    /// The service answered the call with an error.
    public static var callFailed: Self { Self(rawValue: "desktop.call-failed") }
    /// No answer came: the service left the bus first, or the call's time ran out.
    public static var noReply: Self { Self(rawValue: "desktop.no-reply") }
}
