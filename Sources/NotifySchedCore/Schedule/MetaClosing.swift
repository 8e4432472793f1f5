/// How a meta item's popup was closed, in iSmartNews's words (its `condition`s).
public enum MetaClosing: String, Sendable, Hashable, CaseIterable {
    /// Its action was taken: the page opened.
    case ok
    /// Cancelled, or closed by the user without a button.
    case cancel
}

/// `oncePerVersion` / `oncePerInstall`: which closings put the item away.
public struct OnceRule: Sendable, Hashable {
    /// The conditions (`cancel`, `ok`, `review`, `link`…, lower-cased); empty means any closing.
    public var conditions: Set<String>

    public init(conditions: Set<String> = []) {
        self.conditions = conditions
    }

    /// Whether a closing the desktop reports counts: any closing when no condition is named;
    /// opening the page counts as `ok` and as `link` (iSmartNews's click on a page's link).
    public func counts(_ closing: MetaClosing) -> Bool {
        guard !conditions.isEmpty else { return true }
        switch closing {
        case .ok: return conditions.contains("ok") || conditions.contains("link")
        case .cancel: return conditions.contains("cancel")
        }
    }

    /// Whether any closing the desktop reports counts (`review`, `callback` and `removeads`
    /// alone never happen on the desktop).
    public var canHappen: Bool {
        MetaClosing.allCases.contains(where: counts)
    }
}

/// A meta item's last closing of one kind: when, and in which application version.
public struct MetaClosingRecord: Sendable, Equatable {
    /// When the popup was closed.
    public var at: Instant
    /// The source's `application-version` then; nil when none was configured.
    public var applicationVersion: String?

    public init(at: Instant, applicationVersion: String? = nil) {
        self.at = at
        self.applicationVersion = applicationVersion
    }
}
