import CLibnotify
import Glibc
import NotifySchedCore
import NotifySchedPlatform

// Showing popups: laying each out for the server, sending `Notify` on the calls' threads, and
// taking the answers on the loop.
extension DesktopNotifier {
    func present(_ shown: ShownPopup, on server: NotificationServer, replacing popupID: UInt32? = nil) throws {
        var failure: DesktopError?
        ask([(shown, popupID)], on: server) { failure = $0[0] }
        awaitAnswers()
        if let failure { throw failure }
    }

    /// Sends `Notify` for each of `popups` side by side on `server`, each in place of the
    /// server's popup of its id when it has one, and returns at once; `report` gets, for each
    /// popup, nil when the server took it, else why not: on the loop once every answer is in or
    /// `answerLimit` passed (`collectAnswers()`), or from `awaitAnswers()`.
    func ask(
        _ popups: [(shown: ShownPopup, replacing: UInt32?)], on server: NotificationServer,
        then report: @escaping ([DesktopError?]) -> Void
    ) {
        do {
            try checkAnswering()
        } catch {
            return report(popups.map { _ in error })
        }
        let presentations = popups.map { prepare($0.shown, on: server, replacing: $0.replacing) }
        let calls = presentations.map { presentation in
            ServerCall.start(
                notBefore: callsNotBefore, { Self.show(presentation.notification) },
                whenDone: { [weak self] in self?.collectAnswers() })
        }
        let answers = AnswersToCome(
            presentations: presentations, calls: calls, asked: WallClock.now(),
            deadline: ServerCall<String?>.deadline(after: answerLimit, from: callsNotBefore), report: report)
        // A millisecond more: the timer counts whole milliseconds, and must not end before the limit.
        let limit = TimeSpan(microseconds: Int64(answers.deadline - g_get_monotonic_time())) + .milliseconds(1)
        answers.timeout = MainLoop.once(after: limit) { [weak self, weak answers] in
            answers?.timeout = 0
            self?.collectAnswers()
        }
        answersToCome.append(answers)
    }

    /// Calls to the server under way for popups made ready, and where their answers go.
    final class AnswersToCome {
        let presentations: [Presentation]
        let calls: [ServerCall<String?>]
        let asked: Instant
        /// The monotonic clock's reading when the limit passes.
        let deadline: gint64
        let report: ([DesktopError?]) -> Void
        /// The main-loop timer for `deadline`; 0 once it fired.
        var timeout: guint = 0

        init(
            presentations: [Presentation], calls: [ServerCall<String?>], asked: Instant, deadline: gint64,
            report: @escaping ([DesktopError?]) -> Void
        ) {
            self.presentations = presentations
            self.calls = calls
            self.asked = asked
            self.deadline = deadline
            self.report = report
        }

        /// Whether every answer is in, or the limit passed: taking them waits no more.
        var isDue: Bool { deadline <= g_get_monotonic_time() || calls.allSatisfy(\.isDone) }
    }

    var callsUnderWay: Int { answersToCome.reduce(0) { $0 + $1.calls.count } }

    /// Hands the batches of answers that are due (`AnswersToCome.isDue`), in order, to their
    /// reports: called from the loop when a call ends and when a limit passes.
    func collectAnswers() {
        while let first = answersToCome.first, first.isDue {
            report(answersToCome.removeFirst(), waitingUntil: first.deadline)
        }
    }

    /// Takes the server's answers in `answers`, waiting for each until the monotonic clock reads
    /// `deadline` at most, and reports them.
    func report(_ answers: AnswersToCome, waitingUntil deadline: gint64) {
        if answers.timeout != 0 { g_source_remove(answers.timeout) }
        let failures = zip(answers.presentations, answers.calls).map { presentation, call -> DesktopError? in
            do throws(DesktopError) {
                try complete(
                    presentation, call.wait(until: deadline, late: presentation.late), asked: answers.asked)
                return nil
            } catch {
                return error
            }
        }
        answers.report(failures)
    }

    /// A popup made ready for the server: its libnotify object, and what to do when the server
    /// takes it after the limit.
    struct Presentation {
        var shown: ShownPopup
        var popup: Popup
        var server: NotificationServer
        var notification: UnsafeMutablePointer<NotifyNotification>
        var late: (String?) -> Void
    }

    /// Makes the libnotify object of `shown`, laid out for `server`, whose answers go to `shown`.
    func prepare(
        _ shown: ShownPopup, on server: NotificationServer, replacing popupID: UInt32? = nil
    ) -> Presentation {
        let popup = shown.layout(server)
        let notification = notify_notification_new(popup.summary, popup.body, popup.icon)!
        // The property is a gint: an id beyond its range cannot be replaced, only shown anew.
        if let popupID, let id = gint(exactly: popupID) { cnotify_notification_set_id(notification, id) }
        configure(notification, as: popup, for: shown)
        _ = cnotify_connect_closed(
            notification,
            { notification, context in
                let code = notification.map { UInt32(clamping: notify_notification_get_closed_reason($0)) } ?? 4
                ShownPopup.from(context)?.respond(.closed(CloseReason(code: code)), from: notification)
            }, shown.retainedContext(), { context, _ in ShownPopup.release(context) })
        let late = { [weak self] (failure: String?) in
            guard let self else { return }
            if failure != nil {
                releaseLater(notification)
            } else {
                // Shown after all: the popup is on screen, and its buttons answer as usual.
                adopt(notification, showing: popup.key, for: shown)
                sent(shown, as: popup, on: server)
                if popups[popup.key] == nil {
                    shown.cameLate = true
                    wait(for: shown)
                } else if popups[popup.key] !== shown {
                    // Its occurrence shows in another popup meanwhile: this one would be a second.
                    shown.notification = nil
                    closeOnServer(notification)
                }
            }
            overdueCallEnded()
        }
        return Presentation(shown: shown, popup: popup, server: server, notification: notification, late: late)
    }

    /// Takes the server's answer to `presentation` (`Notify`): nil when it had not come by the
    /// limit (the call is overdue then), else nil or why the server refused the popup.
    ///
    /// - Throws: `DesktopError` with `.notAnswering` when the answer had not come, or
    ///   `.showFailed` when the server refused the popup.
    func complete(_ presentation: Presentation, _ answer: String??, asked: Instant) throws(DesktopError) {
        guard let failure = answer else { throw overdue(since: asked) }
        if let failure {
            g_object_unref(presentation.notification)
            throw DesktopError(.showFailed, "the notification server did not take the popup: \(failure)")
        }
        adopt(presentation.notification, showing: presentation.popup.key, for: presentation.shown)
        sent(presentation.shown, as: presentation.popup, on: presentation.server)
    }

    /// How long a popup stays on a server that never reports its expiry before notify-sched
    /// takes it as expired: notification-daemon hides one after 5 to 7 s.
    static let silentExpiry = TimeSpan.seconds(10)

    /// Counts a showing of `shown` (laid out as `popup`) by `server`. On a server that never
    /// reports expiry (`NotificationServer.reportsExpiry`), a popup that expires there (neither
    /// resident nor critical nor kept with a zero timeout) is taken as expired once its own
    /// timeout, or else `silentExpiry`, passed since its last showing (and a second more), unless
    /// answered by then, and removed from the server's list, which would otherwise fill up.
    func sent(_ shown: ShownPopup, as popup: Popup, on server: NotificationServer) {
        shown.showings += 1
        guard !server.reportsExpiry, !popup.isResident, popup.urgency != .critical, popup.timeout != .zero
        else { return }
        let showing = shown.showings
        MainLoop.once(after: popup.timeout.map { $0 + .seconds(1) } ?? Self.silentExpiry) { [weak self, weak shown] in
            guard let self, let shown, shown.showings == showing, !shown.isAnswered,
                let notification = shown.notification
            else { return }
            g_object_ref(notification)
            closeOnServer(notification)
            shown.respond(.closed(.expired), from: notification)
        }
    }

    /// Makes `notification`, which the server took, the one that shows `shown`.
    func adopt(
        _ notification: UnsafeMutablePointer<NotifyNotification>, showing key: PopupKey, for shown: ShownPopup
    ) {
        let previous = shown.notification
        shown.notification = notification
        shown.key = key
        releaseLater(previous)
    }

    /// `Notify`'s expire timeout for `popup`, in milliseconds: never for a resident one, else
    /// its own timeout (0 is never), else the server's default.
    static func expireTimeout(of popup: Popup) -> gint {
        if popup.isResident { return NOTIFY_EXPIRES_NEVER }
        guard let timeout = popup.timeout else { return NOTIFY_EXPIRES_DEFAULT }
        return gint(clamping: timeout.microseconds / 1000)
    }

    /// Sends `notification` to the server (`Notify`): nil when it took it, else why not.
    static func show(_ notification: UnsafeMutablePointer<NotifyNotification>) -> String? {
        var error: UnsafeMutablePointer<GError>?
        return notify_notification_show(notification, &error) != 0 ? nil : GLibValues.take(error)
    }

    /// Sets everything of `popup` but its text on `notification`, whose answers go to `shown`.
    func configure(
        _ notification: UnsafeMutablePointer<NotifyNotification>, as popup: Popup, for shown: ShownPopup
    ) {
        notify_notification_set_urgency(notification, popup.urgency.libnotify)
        notify_notification_set_hint(notification, Popup.occurrenceHint, g_variant_new_string(popup.occurrenceID))
        notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string(Popup.desktopEntry))
        if let category = popup.category { notify_notification_set_category(notification, category) }
        if popup.isResident {
            notify_notification_set_hint(notification, "resident", g_variant_new_boolean(1))
        }
        if let sound = popup.sound {
            notify_notification_set_hint(notification, "sound-name", g_variant_new_string(sound))
        }
        if let image = popup.image {
            notify_notification_set_hint(notification, "image-path", g_variant_new_string(image))
        }
        notify_notification_set_timeout(notification, Self.expireTimeout(of: popup))
        let onAction: NotifyActionCallback = { notification, key, context in
            ShownPopup.from(context)?.respond(.action(key.map { String(cString: $0) } ?? ""), from: notification)
        }
        for button in popup.buttons {
            notify_notification_add_action(
                notification, button.key, button.label, onAction, shown.retainedContext(), ShownPopup.release)
        }
        if popup.hasDefaultAction {
            notify_notification_add_action(
                notification, Popup.defaultActionKey, popup.summary, onAction, shown.retainedContext(),
                ShownPopup.release)
        }
    }
}

extension Urgency {
    var libnotify: NotifyUrgency {
        switch self {
        case .low: NOTIFY_URGENCY_LOW
        case .normal: NOTIFY_URGENCY_NORMAL
        case .critical: NOTIFY_URGENCY_CRITICAL
        }
    }
}
