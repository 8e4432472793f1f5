/// What a successful fetch gives.
public enum FetchOutcome: Sendable, Equatable {
    /// A 200 response: the exact body and the validators to store with it.
    case fetched([UInt8], HTTPValidators)
    /// A 304 response to a conditional request: the copy the validators came from is current.
    case notModified
}
