extension CoreError {
    /// This error as the dictionary holding the failed value under `key` reports it: the
    /// key goes in front of the key path.
    func inside(key: String) -> CoreError {
        var error = self
        error.location.keyPath = FeedKeyPath.join(FeedKeyPath.component(key: key), location.keyPath)
        return error
    }

    /// This error as the array holding the failed value at `index` reports it.
    func inside(index: Int) -> CoreError {
        var error = self
        error.location.keyPath = FeedKeyPath.join(FeedKeyPath.component(index: index), location.keyPath)
        return error
    }
}
