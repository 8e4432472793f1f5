import NotifySchedCore
import NotifySchedDaemon

/// The driver's timer in virtual time: it keeps the deadline the driver armed, and the test
/// fires it (`EmbeddedDaemon.advance(to:)`).
final class ManualTimer: WakeUpTimer {
    private(set) var deadline: Instant?

    func arm(at instant: Instant?) {
        deadline = instant
    }
}
