import NotifySchedCore
import Synchronization

/// A wall clock that moves only when a test moves it: the embedded daemon's `now`.
final class ManualClock: Sendable {
    private let instant: Mutex<Instant>

    init(_ start: Instant) {
        instant = Mutex(start)
    }

    /// The instant the clock shows.
    var now: Instant { instant.withLock { $0 } }

    /// Sets the clock to `instant`: later to let time pass, earlier to step it back.
    func set(_ instant: Instant) {
        self.instant.withLock { $0 = instant }
    }

    /// The clock as the driver reads it.
    var read: @Sendable () -> Instant { { self.now } }
}
