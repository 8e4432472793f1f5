/// Where a dictionary stands in its feed, as a key path spelled out only when a message names
/// it: a feed may have 10^5 entries, each with a dictionary or two, and nearly none has a problem.
///
/// It holds a path already spelled out, then at most an element index and a key below it
/// (`notifications` `[3]` `.action`); a step below those spells the path out.
struct FeedPlace {
    private let base: String
    private let index: Int?
    private let key: String?

    /// The document's root.
    static let root = FeedPlace("")

    /// The place whose key path is `path`.
    init(_ path: String) {
        self.init(base: path, index: nil, key: nil)
    }

    private init(base: String, index: Int?, key: String?) {
        self.base = base
        self.index = index
        self.key = key
    }

    /// The element at `index` of the array here.
    func element(_ index: Int) -> FeedPlace {
        self.index == nil && key == nil
            ? FeedPlace(base: base, index: index, key: nil) : FeedPlace(base: path, index: index, key: nil)
    }

    /// The value under `key` in the dictionary here.
    func member(_ key: String) -> FeedPlace {
        self.key == nil ? FeedPlace(base: base, index: index, key: key) : FeedPlace(base: path, index: nil, key: key)
    }

    /// The key path, as messages print it (`KeyPath`).
    var path: String {
        var path = base
        if let index { path = KeyPath.element(path, index: index) }
        if let key { path = KeyPath.child(path, key: key) }
        return path
    }
}

/// Key paths as messages print them: `notifications[3].fireDate`, `["2011/02/01"].Title`.
enum KeyPath {
    /// The path of the value under `key` in the dictionary at `parent`, written as the
    /// readers write theirs (`FeedKeyPath`): bare identifiers, anything else quoted in brackets.
    static func child(_ parent: String, key: String) -> String {
        let component = FeedKeyPath.component(key: key)
        if parent.isEmpty || component.hasPrefix("[") { return parent + component }
        return parent + "." + component
    }

    /// The path of the element at `index` of the array at `parent`.
    static func element(_ parent: String, index: Int) -> String {
        parent + FeedKeyPath.component(index: index)
    }
}
