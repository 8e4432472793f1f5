import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

@Suite struct HandlingPolicyTests {
    let server = RecordingNotifier.fullServer

    @Test(arguments: [
        ("en_US.UTF-8", ["More Info", "Remind Me Later", "Ignore"], "OK"),
        ("fr_FR.UTF-8", ["Plus d'info", "Me rappeler ultérieurement", "Ignorer"], "OK"),
        ("de_DE@euro", ["Mehr info", "Mich später erinnern", "Ignorieren"], "OK"),
        ("it_IT", ["Maggiori informazioni", "Ricordamelo dopo", "Ignora"], "OK"),
        ("es_ES.UTF-8", ["Más información", "Recordarme más tarde", "Pasar"], "OK"),
        ("ja_JP.UTF-8", ["詳細を調べる", "後で再度通知する。", "無視する"], "OK"),
        ("pt_BR.UTF-8", ["More Info", "Remind Me Later", "Ignore"], "OK"),
        ("C", ["More Info", "Remind Me Later", "Ignore"], "OK"),
    ])
    func promptButtonsAreTranslatedIntoTheUsersLanguage(locale: String, withAction: [String], withoutAction: String) {
        let policy = HandlingPolicy(catalog: Self.catalog(locale: locale))
        let acting = policy.prompt(for: Occurrences.make(.iNotify, url: "https://example.org"), on: server)
        #expect(acting.buttons.map(\.label) == withAction)
        #expect(acting.buttons.map(\.key) == ["open", "remind", "ignore"])
        let plain = policy.prompt(for: Occurrences.make(.iNotify), on: server)
        #expect(plain.buttons == [PopupButton(key: "ok", label: withoutAction)])
    }

    /// A native entry's timeout, sound, picture and markup body, laid out for what each server
    /// can do: markup cleaned where it is read and reduced to its text where it is not, the
    /// sound only for a server that plays sounds, the prompt silent and resident.
    @Test func timeoutSoundImageAndMarkupFollowTheServersCapabilities() {
        var occurrence = Occurrences.make(.native, body: "<b>Ship</b> &amp; <script>x</script>")
        occurrence.content.timeout = .seconds(8)
        occurrence.content.sound = "bell"
        occurrence.content.image = "/tmp/ship.png"
        occurrence.content.markup = true
        let policy = HandlingPolicy(catalog: Self.catalog(locale: "C"))
        let plain = NotificationServer(
            name: "plain", vendor: "tests", version: "1", specVersion: "1.2", capabilities: ["actions", "body"])
        var sounding = server
        sounding.capabilities.insert("sound")

        let onMarkup = policy.scheduledPopup(for: occurrence, on: sounding)
        #expect(onMarkup.body == "<b>Ship</b> &amp; x")
        #expect((onMarkup.timeout, onMarkup.sound, onMarkup.image) == (.seconds(8), "bell", "/tmp/ship.png"))
        let onPlain = policy.scheduledPopup(for: occurrence, on: plain)
        #expect(onPlain.body == "Ship & x" && onPlain.sound == nil && onPlain.image == "/tmp/ship.png")
        let prompt = policy.prompt(for: occurrence, on: sounding)
        #expect(prompt.sound == nil && prompt.timeout == nil && prompt.isResident && prompt.image == "/tmp/ship.png")

        occurrence.content.markup = false
        #expect(
            policy.scheduledPopup(for: occurrence, on: sounding).body
                == "&lt;b&gt;Ship&lt;/b&gt; &amp;amp; &lt;script&gt;x&lt;/script&gt;")
    }

    @Test func noLabelHoldsANulCharacter() {
        for language in TranslationFixtures.languages {
            let labels = ButtonLabels(catalog: Self.catalog(locale: language))
            for label in [labels.ok, labels.ignore, labels.remindMeLater, labels.moreInfo, labels.cancel] {
                #expect(!label.contains("\0"), "the \(language) label \(label.debugDescription) holds a NUL")
            }
        }
    }

    /// The catalog an executable built in this source tree reads for `locale`.
    static func catalog(locale: String) -> MessageCatalog {
        TranslationCatalogs.catalog(
            environment: ["LANG": locale],
            executable: TranslationFixtures.repository.appendingPathComponent(".build/debug/debug/notify-sched").path)
    }

    @Test func theFeedsActionButtonLabelComesFirstAndStandsInForMoreInfo() {
        let policy = HandlingPolicy()
        let popup = policy.prompt(
            for: Occurrences.make(.iNotify, label: "Download", url: "https://example.org"), on: server)
        #expect(popup.buttons.map(\.label) == ["Download", "Remind Me Later", "Ignore"])
    }

    @Test func aSourcesOwnButtonLabelsReplaceTheTranslatedOnes() {
        // seed semantics §1.2: okButtonLabel, ignoreButtonLabel, remindButtonLabel and
        // defaultActionButtonLabel; a feed's own ActionButton still comes first.
        let policy = HandlingPolicy(
            customLabels: [
                "feed": CustomButtonLabels(ok: "Got it", ignore: "Never", remindMeLater: "Tomorrow", moreInfo: "Read")
            ])
        #expect(
            policy.prompt(for: Occurrences.make(.iNotify, url: "https://example.org"), on: server).buttons.map(\.label)
                == ["Read", "Tomorrow", "Never"])
        #expect(policy.prompt(for: Occurrences.make(.iNotify), on: server).buttons.map(\.label) == ["Got it"])
        #expect(
            policy.prompt(for: Occurrences.make(.iNotify, label: "Download", url: "https://e.org"), on: server).buttons
                .map(\.label) == ["Download", "Tomorrow", "Never"])
        #expect(
            policy.prompt(for: Occurrences.make(.iNotify, source: "other"), on: server).buttons.map(\.label) == ["OK"])
    }

    @Test func aMetaItemsClosingIsOKOrCancelAsISmartNewsNamesItAndAnExpiryIsNeither() {
        // seed semantics §2.8: the closing conditions oncePerVersion and oncePerInstall count.
        let meta = Occurrences.make(
            .iSmartNews, url: "https://example.org", news: NewsHandling(contentHash: "h", isClassic: false))
        let policy = HandlingPolicy()
        #expect(policy.decision(for: .action("open"), of: meta).change == .metaOK)
        #expect(policy.decision(for: .action(Popup.defaultActionKey), of: meta).change == .metaOK)
        #expect(policy.decision(for: .action("cancel"), of: meta).change == .metaCancelled)
        #expect(policy.decision(for: .closed(.dismissed), of: meta).change == .metaCancelled)
        #expect(policy.decision(for: .closed(.expired), of: meta).change == nil)
        let classic = Occurrences.make(.iSmartNews, url: "https://example.org", news: NewsHandling(contentHash: "h"))
        #expect(policy.decision(for: .closed(.dismissed), of: classic).change == nil, "a classic message: §5.41")
    }

    @Test func thePromptIsUrgentResidentAndHasNoDefaultAction() {
        let popup = HandlingPolicy(snoozeChoices: []).prompt(
            for: Occurrences.make(.native, url: "https://example.org"), on: server)
        #expect(
            popup
                == Popup(
                    occurrenceID: "occ-1", summary: "New version", body: "Get it now", urgency: .critical,
                    buttons: [
                        PopupButton(key: "open", label: "More Info"),
                        PopupButton(key: "remind", label: "Remind Me Later"),
                        PopupButton(key: "ignore", label: "Ignore"),
                    ],
                    hasDefaultAction: false, isResident: true, role: .prompt))
    }

    @Test func withoutSnoozeChoicesAScheduledZBiMPopupCarriesOnlyItsActionButtonAndTheDefaultAction() {
        let occurrence = Occurrences.make(
            .zbim, title: "New Content Available", body: "Tap to explore", url: "https://example.org/hub")
        let popup = HandlingPolicy(snoozeChoices: []).scheduledPopup(for: occurrence, on: server)
        #expect(popup.buttons == [PopupButton(key: "open", label: "More Info")])
        #expect(popup.hasDefaultAction)
        #expect(popup.urgency == .normal)
        #expect(!popup.isResident)
    }

    @Test func aScheduledINotifyPopupIsItsAlertWithAllThreeButtons() {
        let popup = HandlingPolicy().scheduledPopup(
            for: Occurrences.make(.iNotify, label: "Get it", url: "https://example.org"), on: server)
        #expect(popup.buttons.map(\.key) == ["open", "remind", "ignore"])
        #expect(popup.buttons.count <= server.buttonLimit)
    }

    @Test func anISmartNewsMessageHasOKOnlyWithALinkAndAlwaysCancel() {
        let policy = HandlingPolicy(catalog: Self.catalog(locale: "de"))
        let linked = Occurrences.make(
            .iSmartNews, url: "https://example.org", news: NewsHandling(okLabel: "Los", contentHash: "h"))
        #expect(
            policy.scheduledPopup(for: linked, on: server).buttons == [
                PopupButton(key: "open", label: "Los"), PopupButton(key: "cancel", label: "Abbrechen"),
            ])
        let titleOnly = Occurrences.make(.iSmartNews, body: "", news: NewsHandling(contentHash: "h"))
        #expect(
            policy.scheduledPopup(for: titleOnly, on: server).buttons == [
                PopupButton(key: "cancel", label: "Abbrechen")
            ])
    }

    @Test func feedTextIsEscapedForAServerThatReadsMarkupAndLeftAloneOtherwise() {
        let occurrence = Occurrences.make(.native, title: "<b>T</b>", body: "Tom & Jerry <a href=\"x\">'hi'</a>")
        let marked = HandlingPolicy().scheduledPopup(for: occurrence, on: server)
        #expect(marked.body == "Tom &amp; Jerry &lt;a href=&quot;x&quot;&gt;&apos;hi&apos;&lt;/a&gt;")
        #expect(marked.summary == "<b>T</b>", "the summary is never markup, so it is sent as it is")
        var plainServer = server
        plainServer.capabilities.remove("body-markup")
        #expect(HandlingPolicy().scheduledPopup(for: occurrence, on: plainServer).body == occurrence.content.body)
    }

    @Test func withoutActionsThePopupSaysHowToActFromATerminal() {
        let occurrence = Occurrences.make(.native, url: "https://example.org")
        let bodyOnly = NotificationServer(
            name: "s", vendor: "v", version: "1", specVersion: "1.2", capabilities: ["body"])
        let popup = HandlingPolicy().scheduledPopup(for: occurrence, on: bodyOnly)
        #expect(popup.buttons == [])
        #expect(!popup.hasDefaultAction)
        #expect(popup.body == "Get it now\n\nTo act on it, run: notify-sched handle occ-1 --no-alert")

        var markup = bodyOnly
        markup.capabilities.insert("body-markup")
        #expect(
            HandlingPolicy().scheduledPopup(for: occurrence, on: markup).body
                == "Get it now\n\n<i>To act on it, run: notify-sched handle occ-1 --no-alert</i>")

        var summaryOnly = bodyOnly
        summaryOnly.capabilities = []
        #expect(
            HandlingPolicy().scheduledPopup(for: occurrence, on: summaryOnly).summary
                == "New version (notify-sched handle occ-1 --no-alert)")
    }

    // MARK: What real servers draw (docs/daemon.md "On the desktop")

    private func server(named name: String, vendor: String) -> NotificationServer {
        NotificationServer(
            name: name, vendor: vendor, version: "1", specVersion: "1.2", capabilities: ["actions", "body"])
    }

    @Test func aLabelWithAmpersandOrAngleBracketsIsDrawnTheSameOnEveryServer() {
        let occurrence = Occurrences.make(.native, label: "Q&A <live>", url: "https://example.org")
        let popup = HandlingPolicy(snoozeChoices: []).scheduledPopup(for: occurrence, on: server)
        #expect(popup.buttons.map(\.label) == ["Q+A ‹live›"], "markup on some servers, a mnemonic on Qt's")
    }

    @Test func serversThatDrawTheDefaultActionAsAButtonGetNone() {
        let policy = HandlingPolicy(snoozeChoices: [])
        let occurrence = Occurrences.make(.native, url: "https://example.org")
        for (name, vendor) in [("Xfce Notify Daemon", "Xfce"), ("lxqt-notificationd", "lxqt.org")] {
            let popup = policy.scheduledPopup(for: occurrence, on: server(named: name, vendor: vendor))
            #expect(!popup.hasDefaultAction, "\(name) would draw a button repeating the title")
            #expect(popup.buttons.map(\.key) == ["open"])
        }
        let dunst = policy.scheduledPopup(for: occurrence, on: server(named: "dunst", vendor: "knopwob"))
        #expect(dunst.hasDefaultAction)
        let plain = Occurrences.make(.native)
        let xfce = policy.scheduledPopup(for: plain, on: server(named: "Xfce Notify Daemon", vendor: "Xfce"))
        #expect(xfce.buttons == [PopupButton(.ok, label: "OK")], "a click acknowledged it; an OK button does there")
    }

    @Test func onlyGNOMEsNotificationDaemonIsKnownNotToReportExpiry() {
        #expect(!server(named: "Notification Daemon", vendor: "GNOME").reportsExpiry)
        #expect(server(named: "Notification Daemon", vendor: "MATE").reportsExpiry)
        #expect(server(named: "dunst", vendor: "knopwob").reportsExpiry)
    }

    @Test func aPopupNothingWillHearIsLaidOutWithoutButtonsSayingHowToAct() {
        let occurrence = Occurrences.make(.native, url: "https://example.org")
        let popup = HandlingPolicy().scheduledPopup(for: occurrence, on: server, answerable: false)
        #expect(popup.buttons == [] && !popup.hasDefaultAction)
        #expect(popup.body.hasSuffix("To act on it, run: notify-sched handle occ-1 --no-alert</i>"))
    }

    @Test func aPopupNothingWillHearWithNoActionOfItsOwnKeepsItsBodyAsWritten() {
        let occurrence = Occurrences.make(.native)
        let plain = NotificationServer(
            name: "plain", vendor: "tests", version: "1", specVersion: "1.2", capabilities: ["actions", "body"])
        for server in [self.server, plain] {
            let popup = HandlingPolicy().scheduledPopup(for: occurrence, on: server, answerable: false)
            #expect(popup.buttons == [] && !popup.hasDefaultAction)
            #expect(popup.body == occurrence.content.body, "there is nothing to act on: \(popup.body)")
        }
    }
}
