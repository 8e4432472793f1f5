import NotifySchedCore
import Testing

@Suite struct ConfigurationTests {
    @Test func emptyFileGivesTheDefaults() {
        let (configuration, diagnostics) = Configuration.parse("")
        #expect(configuration == Configuration())
        #expect(diagnostics == [])
        #expect(
            configuration.sourceDefaults.iNotify == INotifySettings(checkPeriod: .hours(12), remindPeriod: .days(1)))
    }

    @Test func fetchPeriodDefaultsToTheCheckPeriodForINotifyAndAnHourForOthers() throws {
        let (configuration, diagnostics) = Configuration.parse(
            """
            check-period = 6h

            [source tips]
            feed = https://portal.example.org/tips.plist

            [source team]
            feed = /srv/feeds/team.json
            fetch-period = 5min
            """)
        #expect(diagnostics == [])
        let tips = configuration.sources[0].settings
        #expect(tips.pollingPolicy(for: .iNotify).checkPeriod == .hours(6))
        #expect(tips.pollingPolicy(for: .native).checkPeriod == .hours(1))
        #expect(tips.pollingPolicy(for: nil).checkPeriod == .hours(1))
        #expect(configuration.sources[1].settings.pollingPolicy(for: .iNotify).checkPeriod == .minutes(5))
    }

    @Test func alarmsShowACalendarsOwnForFilesNoneForURLsOrDefaultOffsets() throws {
        let (configuration, diagnostics) = Configuration.parse(
            """
            [source subscribed]
            feed = webcal://cloud.example.org/team.ics

            [source folder]
            feed = /home/ada/.calendars/work

            [source reminded]
            feed = https://calendar.example.org/basic.ics
            alarms = -15min, -1d, -PT2H

            [source broken]
            feed = /srv/cal.ics
            alarms = sometimes
            """)
        let settings = configuration.sources.map(\.settings)
        #expect(settings[0].alarmPolicy(for: configuration.sources[0].feed) == .none)
        #expect(settings[1].alarmPolicy(for: configuration.sources[1].feed) == .embedded)
        #expect(
            settings[2].alarms
                == .defaults([
                    ICalendarDuration(seconds: -900), ICalendarDuration(days: -1), ICalendarDuration(seconds: -7200),
                ]))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.description.contains("`alarms`") == true)
    }

    @Test func globalKeysAreDefaultsThatSourcesOverride() throws {
        let (configuration, diagnostics) = Configuration.parse(
            """
            # defaults for every source
            application-version = 2.1
            check-period = 6h
            quiet-hours = 22:00-07:00
            allow-scheme = zbimdb, steam

            [source news]
            feed = https://portal.example.org/news.plist
            dialect = inotify
            show-oldest-first = yes
            application-version = 3.0

            [source local]
            feed = /srv/feeds/team.json
            public-key = 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=
            """)
        #expect(diagnostics == [])
        #expect(configuration.extraSchemes == ["zbimdb", "steam"])
        #expect(configuration.quietHours == QuietHours(parsing: "22:00-07:00"))
        #expect(configuration.sources.map(\.name) == ["news", "local"])
        let news = configuration.sources[0]
        #expect(news.dialect == .iNotify)
        #expect(
            news.settings.iNotify
                == INotifySettings(checkPeriod: .hours(6), showOldestFirst: true, applicationVersion: "3.0"))
        let local = configuration.sources[1]
        #expect(local.settings.iNotify.applicationVersion == "2.1")
        #expect(local.publicKey == "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=")
    }

    @Test func iNotifysLabelsCheckAtLaunchAndHiddenKeysAreSourceSettings() throws {
        let (configuration, diagnostics) = Configuration.parse(
            """
            ok-label = Got it
            [source updates]
            feed = /srv/updates.plist
            check-at-launch = no
            hidden-keys = 2026/01/01, 2026/02/01
            action-label = Read
            remind-label = Tomorrow
            ignore-label = Never
            """)
        #expect(diagnostics == [])
        let settings = try #require(configuration.sources.first?.settings.iNotify)
        #expect(!settings.checkAtLaunch)
        #expect(settings.hiddenKeys == ["2026/01/01", "2026/02/01"])
        #expect(
            settings.labels
                == CustomButtonLabels(ok: "Got it", ignore: "Never", remindMeLater: "Tomorrow", moreInfo: "Read"))
        #expect(configuration.customButtonLabels["/srv/updates.plist"] == settings.labels)
    }

    @Test func snoozeChoicesAreDurationsOrTomorrowInTheirOrderOrNone() {
        #expect(Configuration.parse("").configuration.snoozeChoices == Snooze.defaultChoices)
        #expect(
            Configuration.parse("snooze = 5min, tomorrow, 5min").configuration.snoozeChoices == [
                .after(.minutes(5)), .tomorrowMorning,
            ])
        #expect(Configuration.parse("snooze = none").configuration.snoozeChoices == [])
        let (configuration, diagnostics) = Configuration.parse("snooze = 1min, 2min, 3min, 4min\nsnooze = 1h, soon")
        #expect(
            diagnostics.map(\.description) == [
                "line 1: `snooze` offers at most 3 choices, not 4",
                "line 2: `snooze` takes durations from 1s to 366d or `tomorrow`, separated by commas, or `none`; "
                    + "not \"soon\"",
            ])
        #expect(configuration.snoozeChoices == Snooze.defaultChoices, "a line with an error changes nothing")
    }

    @Test func problemsNameTheirLine() {
        let (configuration, diagnostics) = Configuration.parse(
            """
            quiet-hours = late
            allow-scheme = javascript
            colour = blue
            [source a]
            check-period = soon
            [source a]
            feed = x
            [source b]
            """)
        #expect(
            diagnostics.map(\.description) == [
                "line 1: `quiet-hours` must be HH:MM-HH:MM, not \"late\"",
                "line 2: the URL scheme \"javascript:\" can never be allowed",
                "warning: line 3: unknown key `colour` is ignored",
                "line 5: `check-period` must be a positive duration such as 12h, 30min or 1d, not \"soon\"",
                "line 4: source \"a\" has no `feed`",
                "line 6: source \"a\" is configured twice",
                "line 8: source \"b\" has no `feed`",
            ])
        #expect(configuration.sources == [])
    }

    @Test func quietHoursMayCrossMidnightAndEndInTheUserZone() throws {
        let hours = try #require(QuietHours(parsing: "22:00-07:00"))
        let berlin = zone("Europe/Berlin")
        #expect(
            hours.end(containing: instant("2026-03-28T23:30:00+01:00"), in: berlin)
                == instant("2026-03-29T07:00:00+02:00"))
        #expect(
            hours.end(containing: instant("2026-03-29T06:00:00+02:00"), in: berlin)
                == instant("2026-03-29T07:00:00+02:00"))
        #expect(hours.end(containing: instant("2026-03-29T12:00:00+02:00"), in: berlin) == nil)
        #expect(QuietHours(parsing: "07:00-07:00") == nil)
        #expect(QuietHours(parsing: "25:00-07:00") == nil)
        #expect(QuietHours(parsing: "2\u{301}2:00-07:00") == nil, "a digit with a combining mark is no digit")
    }
}
