import NotifySchedCore

/// What a successful fetch gives.
public enum FetchOutcome: Sendable, Equatable {
    /// A 200 response: the exact body, the validators to store with it, and the check period
    /// its `Cache-Control` asks for (`CacheControl.period(fromHeader:)`).
    case fetched([UInt8], HTTPValidators, portalPeriod: TimeSpan? = nil)
    /// A 304 response to a conditional request: the copy the validators came from is current;
    /// with the check period its `Cache-Control` asks for.
    case notModified(portalPeriod: TimeSpan? = nil)
}
