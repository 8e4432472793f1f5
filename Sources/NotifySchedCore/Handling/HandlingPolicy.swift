/// How notify-sched lays out its popups and what each answer does: pure rules, no I/O.
///
/// Each dialect keeps its original's buttons and state changes:
/// - iNotify (seed semantics §1.7): [action label or "More Info", "Remind Me Later", "Ignore"]
///   when there is an action URL, else ["OK"].
/// - iSmartNews (§2.3–§2.4): [OK] when there is a link, then [Cancel]; OK marks the message
///   shown unless `always`, Cancel unless `always` or `repeat`, a popup closed without a
///   button marks nothing.
/// - ZBiM and native entries (§3): the scheduled popup carries only the action button; a click
///   acts at once. The prompt of `handleLocalNotification(_:showAlert: true)` has the iNotify
///   buttons.
///
/// Native and ZBiM entries also offer snooze buttons (`snoozeChoices`) where the server has room:
/// on the popup after its own buttons, as many as fit; on the prompt in place of "Remind Me
/// Later" when all of them fit, else not at all, so the prompt keeps ZBiM's three buttons.
public struct HandlingPolicy: Sendable, Equatable {
    /// The translations of the labels and of the lines popups and prompts add, in the user's language.
    public var catalog: MessageCatalog
    /// The schemes an action may open; checked again right before opening.
    public var urlPolicy: URLPolicy
    /// The command a person types to act from a terminal, shown when the server has no buttons.
    public var commandName: String
    /// Sources' own button labels, by source location.
    public var customLabels: [String: CustomButtonLabels]
    /// The snooze buttons native and ZBiM popups and prompts offer, in order.
    public var snoozeChoices: [Snooze]

    public init(
        catalog: MessageCatalog = .english, urlPolicy: URLPolicy = URLPolicy(), commandName: String = "notify-sched",
        customLabels: [String: CustomButtonLabels] = [:], snoozeChoices: [Snooze] = Snooze.defaultChoices
    ) {
        self.catalog = catalog
        self.urlPolicy = urlPolicy
        self.commandName = commandName
        self.customLabels = customLabels
        self.snoozeChoices = snoozeChoices
    }

    /// The labels, in the catalog's language.
    public var labels: ButtonLabels { ButtonLabels(catalog: catalog) }

    /// The labels of `source`'s popups: its own where it set them, else the translated ones.
    public func labels(of source: String?) -> ButtonLabels {
        source.flatMap { customLabels[$0] }?.applied(to: labels) ?? labels
    }

    /// The popup shown when `occurrence` falls due, laid out for `server`.
    ///
    /// A click on it, or on its action button, is an answer the user already gave: it is
    /// handled as `showAlert: false`. Without `answerable`, nothing will hear that answer (a `test`
    /// that exits at once, with no daemon): the popup is laid out as for a server without
    /// buttons, saying how to act from a terminal, rather than with buttons that do nothing.
    public func scheduledPopup(
        for occurrence: DeliveredOccurrence, on server: NotificationServer, answerable: Bool = true
    ) -> Popup {
        let content = occurrence.content
        let popup = Popup(
            occurrenceID: occurrence.id, summary: content.title, body: content.body, bodyIsMarkup: content.markup,
            icon: content.icon, urgency: content.urgency, buttons: buttons(for: occurrence), hasDefaultAction: true,
            category: occurrence.category, timeout: content.timeout, sound: content.sound, image: content.image)
        return adapted(popup, to: server, answerable: answerable, addingAsRoomAllows: snoozeButtons(for: occurrence))
    }

    /// The buttons the scheduled popup of `occurrence` asks for, before any server's limit and
    /// the snooze buttons added as room allows: the dialect's alert for iNotify and iSmartNews,
    /// else the entry's action, if it has one.
    public func buttons(for occurrence: DeliveredOccurrence) -> [PopupButton] {
        switch occurrence.dialect {
        case .iNotify, .iSmartNews:
            alertButtons(for: occurrence)
        case .native, .zbim, .iCalendar:
            occurrence.content.action.map {
                [PopupButton(.open, label: actionLabel(of: $0, source: occurrence.source, dialect: occurrence.dialect))]
            } ?? []
        }
    }

    /// The prompt of `handleLocalNotification(_:showAlert: true)`: an urgent popup that stays
    /// until answered, with the dialect's buttons, silent (the popup it asks about made the sound).
    /// "Remind Me Later" gives way to the snooze buttons where the server shows them all.
    public func prompt(for occurrence: DeliveredOccurrence, on server: NotificationServer) -> Popup {
        var buttons = alertButtons(for: occurrence)
        let snoozes = snoozeButtons(for: occurrence)
        if let remind = buttons.firstIndex(where: { $0.key == UserChoice.remindLater.rawValue }), !snoozes.isEmpty,
            buttons.count - 1 + snoozes.count <= server.buttonLimit
        {
            buttons.replaceSubrange(remind...remind, with: snoozes)
        }
        let content = occurrence.content
        let popup = Popup(
            occurrenceID: occurrence.id, summary: content.title, body: content.body, bodyIsMarkup: content.markup,
            icon: content.icon, urgency: .critical, buttons: buttons, hasDefaultAction: false,
            isResident: true, category: occurrence.category, image: content.image, role: .prompt)
        return adapted(popup, to: server)
    }

    /// The snooze buttons `occurrence` offers: none for iNotify and iSmartNews (to the letter)
    /// nor for a test popup, which has no schedule to come back from.
    private func snoozeButtons(for occurrence: DeliveredOccurrence) -> [PopupButton] {
        guard occurrence.canSnooze else { return [] }
        return snoozeChoices.map { PopupButton(key: $0.buttonKey, label: $0.label(in: catalog)) }
    }

    /// The buttons of the dialect's alert, in the original's order.
    public func alertButtons(for occurrence: DeliveredOccurrence) -> [PopupButton] {
        let labels = labels(of: occurrence.source)
        if occurrence.dialect == .iSmartNews {
            let news = occurrence.news
            var buttons: [PopupButton] = []
            if occurrence.content.action != nil {
                buttons.append(PopupButton(.open, label: news?.okLabel ?? labels.ok))
            }
            buttons.append(PopupButton(.cancel, label: news?.cancelLabel ?? labels.cancel))
            return buttons
        }
        guard let action = occurrence.content.action else { return [PopupButton(.ok, label: labels.ok)] }
        return [
            PopupButton(.open, label: actionLabel(of: action, source: occurrence.source)),
            PopupButton(.remindLater, label: labels.remindMeLater),
            PopupButton(.ignore, label: labels.ignore),
        ]
    }

    /// An action's label, or else "Open" for a calendar event's link and `source`'s "More Info"
    /// for the others.
    public func actionLabel(of action: NotificationAction, source: String? = nil, dialect: FeedDialect? = nil) -> String
    {
        let labels = labels(of: source)
        return action.label.flatMap { $0.isEmpty ? nil : $0 } ?? (dialect == .iCalendar ? labels.open : labels.moreInfo)
    }

    /// What `response` to a popup of `occurrence` means and does.
    ///
    /// A click on the popup itself (`default`) is the choice to act: open the URL when there is
    /// one, else acknowledge. Unknown keys and closed popups choose nothing.
    public func decision(for response: PopupResponse, of occurrence: DeliveredOccurrence) -> Decision {
        switch response {
        case .closed(.dismissed) where occurrence.news?.isClassic == false:
            // iSmartNews marks a meta item closed without a button as cancelled; an expired
            // popup may have gone unseen, so it marks nothing.
            return Decision(change: .metaCancelled)
        case .closed:
            return Decision()
        case .action(Popup.defaultActionKey):
            return decision(for: actingChoice(for: occurrence), of: occurrence)
        case .action(let key):
            if let snooze = Snooze(buttonKey: key) {
                // Only what notify-sched offers is taken: an occurrence that cannot snooze never had the button.
                return (try? snoozeDecision(for: occurrence, snooze)) ?? Decision()
            }
            return decision(for: UserChoice(rawValue: key), of: occurrence)
        }
    }

    /// A snooze: "Remind Me Later" for as long as `snooze` says instead of for the remind
    /// period. Only native, ZBiM and calendar entries keep a reminder of their own; iNotify's
    /// reminder is its source's remind period, to the letter, and iSmartNews has none.
    ///
    /// - Throws: `CoreError` with `.cannotSnooze` for another dialect or a test popup.
    public func snoozeDecision(for occurrence: DeliveredOccurrence, _ snooze: Snooze) throws(CoreError) -> Decision {
        guard occurrence.dialect.keepsAnswersPerEntry else {
            throw CoreError(
                .cannotSnooze,
                "\(occurrence.entryID) is an \(occurrence.dialect.rawValue) message, reminded only after its "
                    + "source's remind-period (as the original library does); snooze a native, ZBiM or calendar entry")
        }
        guard occurrence.canSnooze else {
            throw CoreError(
                .cannotSnooze,
                "\(occurrence.id) is a test popup, which no schedule brings back; snooze an entry of a feed")
        }
        return Decision(choice: .remindLater, change: .reminded, snooze: snooze)
    }

    /// What handling without asking (`showAlert: false`) does: the user already chose to act.
    public func immediateDecision(for occurrence: DeliveredOccurrence) -> Decision {
        decision(for: actingChoice(for: occurrence), of: occurrence)
    }

    private func actingChoice(for occurrence: DeliveredOccurrence) -> UserChoice? {
        if occurrence.content.action != nil { return .open }
        // An iSmartNews message without a link has no OK button: a click on it answers nothing.
        return occurrence.dialect == .iSmartNews ? nil : .ok
    }

    private func decision(for choice: UserChoice?, of occurrence: DeliveredOccurrence) -> Decision {
        guard let choice else { return Decision() }
        let url = choice == .open ? occurrence.content.action?.url : nil
        if occurrence.dialect == .iSmartNews {
            let news = occurrence.news ?? NewsHandling(contentHash: "")
            guard news.isClassic else {
                let closing: StateChange? =
                    switch choice {
                    case .open, .ok: .metaOK
                    case .cancel, .ignore: .metaCancelled
                    case .remindLater: nil
                    }
                return Decision(choice: choice, opens: url, change: closing)
            }
            let marks: Bool =
                switch choice {
                case .open, .ok: !news.always
                case .cancel, .ignore: !news.always && !news.repeats
                case .remindLater: false
                }
            return Decision(choice: choice, opens: url, change: marks ? .newsShown : nil)
        }
        let change: StateChange? =
            switch choice {
            case .open, .ok: .viewed
            case .remindLater: .reminded
            case .ignore: .ignored
            case .cancel: nil
            }
        return Decision(choice: choice, opens: url, change: change)
    }

    /// `popup` as `server` can show it: for a server that reads markup, a plain body escaped and
    /// a markup body cleaned to the spec's subset, for one that does not, a markup body as its
    /// text; a sound only for a server that plays them; labels every server draws as they are;
    /// no `default` action on a server that would draw it as a button (with an OK button instead
    /// when it would have none); for a server without buttons, or when nothing will hear an
    /// answer (not `answerable`), no actions and a line that says how to act from a terminal;
    /// the body stays as written when nothing will hear an answer and the popup offers no
    /// action of its own (`notify-sched test SUMMARY BODY`, as `notify-send` shows it).
    ///
    /// `extraButtons` follow the popup's own (and the OK button it may get) as far as the
    /// server's `buttonLimit` allows.
    func adapted(
        _ popup: Popup, to server: NotificationServer, answerable: Bool = true,
        addingAsRoomAllows extraButtons: [PopupButton] = []
    ) -> Popup {
        let offersAction = !popup.buttons.isEmpty
        var popup = popup
        switch (popup.bodyIsMarkup, server.readsMarkup) {
        case (false, true): popup.body = MarkupText.escaped(popup.body)
        case (true, true): popup.body = MarkupText.cleaned(popup.body)
        case (true, false): popup.body = MarkupText.text(of: popup.body)
        case (false, false): break
        }
        if !server.playsSounds { popup.sound = nil }
        if server.drawsDefaultActionAsButton, popup.hasDefaultAction {
            popup.hasDefaultAction = false
            // The click on the popup acknowledged it; a button does instead.
            if popup.buttons.isEmpty { popup.buttons = [PopupButton(.ok, label: labels.ok)] }
        }
        popup.buttons = (popup.buttons + extraButtons).prefix(server.buttonLimit).map {
            PopupButton(key: $0.key, label: MarkupText.buttonLabel($0.label))
        }
        guard server.showsButtons, answerable else {
            return withoutButtons(popup, on: server, sayingHowToAct: answerable || offersAction)
        }
        return popup
    }

    /// `popup` without actions; `sayingHowToAct`, with a line that says how to act from a terminal.
    private func withoutButtons(_ popup: Popup, on server: NotificationServer, sayingHowToAct: Bool) -> Popup {
        var popup = popup
        popup.buttons = []
        popup.hasDefaultAction = false
        guard sayingHowToAct else { return popup }
        let command = "\(commandName) handle \(popup.occurrenceID) --no-alert"
        if server.showsBody {
            let line =
                server.readsMarkup
                ? "<i>\(MarkupText.escaped(actingLine(command)))</i>" : actingLine(command)
            popup.body = popup.body.isEmpty ? line : popup.body + "\n\n" + line
        } else {
            popup.summary += " (\(command))"
        }
        return popup
    }

    /// The line that tells how to act on a popup from a terminal.
    func actingLine(_ command: String) -> String {
        catalog.translated("To act on it, run: {command}", ["command": command])
    }
}

/// What an answer leads to: the URL to open, then the state change to make.
public struct Decision: Sendable, Equatable {
    /// What the answer meant; nil when it chose nothing (a closed popup).
    public var choice: UserChoice?
    /// The URL to open first. When it cannot be opened, `change` is not made.
    public var opens: ActionURL?
    /// The state change to make.
    public var change: StateChange?
    /// For a snooze: how long until the occurrence comes back, instead of the remind period.
    public var snooze: Snooze?

    public init(choice: UserChoice? = nil, opens: ActionURL? = nil, change: StateChange? = nil, snooze: Snooze? = nil) {
        self.choice = choice
        self.opens = opens
        self.change = change
        self.snooze = snooze
    }
}
