/// A source's own button labels (iNotify's `okButtonLabel`, `ignoreButtonLabel`,
/// `remindButtonLabel` and `defaultActionButtonLabel`); nil keeps the translated label.
public struct CustomButtonLabels: Sendable, Equatable {
    /// `ok-label`: the button of a message without a URL.
    public var ok: String?
    /// `ignore-label`.
    public var ignore: String?
    /// `remind-label`.
    public var remindMeLater: String?
    /// `action-label`: the action button of a message without its own `ActionButton`.
    public var moreInfo: String?

    public init(ok: String? = nil, ignore: String? = nil, remindMeLater: String? = nil, moreInfo: String? = nil) {
        self.ok = ok
        self.ignore = ignore
        self.remindMeLater = remindMeLater
        self.moreInfo = moreInfo
    }

    /// `labels` with these in place of the ones set.
    public func applied(to labels: ButtonLabels) -> ButtonLabels {
        ButtonLabels(
            ok: ok ?? labels.ok, ignore: ignore ?? labels.ignore, remindMeLater: remindMeLater ?? labels.remindMeLater,
            moreInfo: moreInfo ?? labels.moreInfo, cancel: labels.cancel, open: labels.open)
    }
}
