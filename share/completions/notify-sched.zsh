#compdef notify-sched

__notify-sched_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__notify-sched_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __notify-sched_complete "${completions[@]:0:-1}"
    fi
}

__notify-sched_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_notify-sched() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'validate:Check feeds and list every problem.'
            'list:Show the schedule: each entry with its next occurrences.'
            'test:Show a test popup the way a scheduled notification is shown.'
            'handle:Act on a notification notify-sched delivered.'
            'daemon:Run the user-session daemon in the foreground.'
            'event:Post a named event to the running daemon.'
            'status:Show the daemon, its sources and the notification server.'
            'history:Show what was shown, when, and what became of it.'
            'keygen:Make an Ed25519 key pair for signing feeds.'
            'sign:Sign a feed: write FEED.sig.'
            'sync:Check every source now, ignoring check periods, and print what changed.'
            'preview:Show when, for whom and how a feed'\''s popups will show, before publishing it.'
            'receipts:Show or send the counts that sources with receipts on report to their collector.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        validate|list|test|handle|daemon|event|status|history|keygen|sign|sync|preview|receipts|help)
            "_notify-sched_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_notify-sched_validate() {
    local -i ret=1
    local -ar ___dialect=('native' 'zbim' 'inotify' 'ismartnews' 'icalendar')
    local -ar arg_specs=(
        '*:feed:'
        '*--allow-scheme[Also allow action URLs with this scheme (repeatable); https, http and mailto always are.]:scheme:'
        '--public-key[The portal'\''s Ed25519 public key (base64 of the raw 32 bytes)\: feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.]:key:'
        '*--ca-file[A PEM file of certificate authorities to trust for HTTPS feeds, besides the system'\''s (repeatable).]:file:'
        '--connect-timeout[How long to wait for a connection to a portal (default 10s).]:span:'
        '--timeout[How long a whole fetch may take, redirects and body included (default 60s).]:span:'
        '--dialect[Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default\: each as its source is configured, else by its shape.]:dialect:{__notify-sched_complete "${___dialect[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_list() {
    local -i ret=1
    local -ar ___dialect=('native' 'zbim' 'inotify' 'ismartnews' 'icalendar')
    local -ar arg_specs=(
        '--config[The configuration file whose sources to list when no daemon runs (default\: $XDG_CONFIG_HOME/notify-sched/config).]:file:'
        '*--feed[A feed file or http(s)\:// URL to list (repeatable). A URL is fetched (conditional GET) and cached; when the fetch fails, the last good copy is used with a warning.]:path|url:'
        '--now[The time to list from, RFC 3339 (2026-03-29T09\:00\:00Z; without an offset it is local time) or @SECONDS.]:time:'
        '--upcoming[How many occurrences to show per entry (1 to 1000).]:n:'
        '*--source[Only the entries of this source\: its name in the configuration, or its feed'\''s path or URL (repeatable).]:source:'
        '*--state[Only the entries in this state\: pending, delivered, acted, ignored, reminded, closed, missed, suppressed, or (nothing recorded and no time to come) ended, expired or "other version" (repeatable).]:state:'
        '*--id[Only the entries whose id matches this shell pattern, such as '\''standup'\'' or '\''news-*'\'' (repeatable).]:pattern:'
        '--limit[How many entries to show, the soonest first (default 100; 0 for all).]:n:'
        '--offset[How many entries to skip before the first shown\: the next page.]:n:'
        '--json[Print a JSON array instead of a table.]'
        '*--allow-scheme[Also allow action URLs with this scheme (repeatable); https, http and mailto always are.]:scheme:'
        '--public-key[The portal'\''s Ed25519 public key (base64 of the raw 32 bytes)\: feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.]:key:'
        '*--ca-file[A PEM file of certificate authorities to trust for HTTPS feeds, besides the system'\''s (repeatable).]:file:'
        '--connect-timeout[How long to wait for a connection to a portal (default 10s).]:span:'
        '--timeout[How long a whole fetch may take, redirects and body included (default 60s).]:span:'
        '--dialect[Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default\: each as its source is configured, else by its shape.]:dialect:{__notify-sched_complete "${___dialect[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_test() {
    local -i ret=1
    local -ar ___urgency=('low' 'normal' 'critical')
    local -ar arg_specs=(
        ':summary:'
        ':body:'
        '--title[The popup'\''s title (default\: a title that says it is a test).]:title:'
        '--body[The popup'\''s body\: plain text, or markup with --markup.]:body:'
        '--markup[The body is markup (<b>, <i>, <u>, <a href>), cleaned to that and shown as text where the server reads none.]'
        '--action-label[The action button'\''s label (default\: "More Info", translated).]:action-label:'
        '--action-url[The URL the action button and a click on the popup open.]:action-url:'
        '(-u --urgency)'{-u,--urgency}'[low, normal or critical.]:urgency:{__notify-sched_complete "${___urgency[@]}"}'
        '(-t --expire-time)'{-t,--expire-time}'[How long the popup stays, in milliseconds as notify-send takes it (0\: until it is closed; default\: as the server likes).]:milliseconds:'
        '(-i --icon)'{-i,--icon}'[An icon name from the icon theme, or a file path.]:icon:'
        '*'{-h,--hint}'[A hint as notify-send takes it\: string\:sound-name\:NAME (a sound-theme sound, for a server that plays them) or string\:image-path\:PATH (a picture'\''s absolute path or file\:// URI); repeatable.]:type\:name\:value:'
        '--in[Show it after this long (90s, 5min, 1h).]:duration:'
        '(-w --wait)'{-w,--wait}'[Stay until the popup is acted on or closed, and print what happened.]'
        '*--allow-scheme[Also allow action URLs with this scheme (repeatable); https, http and mailto always are.]:scheme:'
        '--version[Show the version.]'
        '(-? --help)'{-?,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_handle() {
    local -i ret=1
    local -ar ___dialect=('native' 'zbim' 'inotify' 'ismartnews' 'icalendar')
    local -ar arg_specs=(
        ':id:'
        '--no-alert[Act at once, without asking.]'
        '--check[Only say whether ID is a notification notify-sched can handle; do nothing with it.]'
        '--snooze[Remind me of it again after this long (10min, 1h, 2d), or tomorrow (at 09\:00), instead of after the remind period, without asking.]:span:'
        '*--allow-scheme[Also allow action URLs with this scheme (repeatable); https, http and mailto always are.]:scheme:'
        '--public-key[The portal'\''s Ed25519 public key (base64 of the raw 32 bytes)\: feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.]:key:'
        '*--ca-file[A PEM file of certificate authorities to trust for HTTPS feeds, besides the system'\''s (repeatable).]:file:'
        '--connect-timeout[How long to wait for a connection to a portal (default 10s).]:span:'
        '--timeout[How long a whole fetch may take, redirects and body included (default 60s).]:span:'
        '--dialect[Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default\: each as its source is configured, else by its shape.]:dialect:{__notify-sched_complete "${___dialect[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_daemon() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[The configuration file (default\: $XDG_CONFIG_HOME/notify-sched/config).]:file:'
        '*--feed[Follow this feed (a path or an http(s) URL) instead of the configured ones (repeatable).]:location:'
        '--public-key[The Ed25519 public key (base64) the --feed feeds must be signed with.]:key:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_event() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--json[Print the daemon'\''s status as a JSON object.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_history() {
    local -i ret=1
    local -ar arg_specs=(
        '--since[How far back\: a span (30min, 2h, 7d) or a time (RFC 3339, a date, @SECONDS; default\: all kept).]:span|time:'
        '--source[Only this source\: its name in the configuration, or its feed'\''s path or URL.]:source:'
        '--config[The configuration file that names the sources (default\: $XDG_CONFIG_HOME/notify-sched/config).]:file:'
        '--json[Print a JSON array instead of a table.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_keygen() {
    local -i ret=1
    local -ar arg_specs=(
        '--output[Where to write the private key.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_sign() {
    local -i ret=1
    local -ar arg_specs=(
        ':feed:'
        '--key[The private key file written by `notify-sched keygen`.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_sync() {
    local -i ret=1
    local -ar ___dialect=('native' 'zbim' 'inotify' 'ismartnews' 'icalendar')
    local -ar arg_specs=(
        '--config[The configuration file (default\: $XDG_CONFIG_HOME/notify-sched/config), when no daemon runs.]:file:'
        '*--feed[Check this portal feed URL instead of the configured sources, without the daemon (repeatable).]:url:'
        '*--allow-scheme[Also allow action URLs with this scheme (repeatable); https, http and mailto always are.]:scheme:'
        '--public-key[The portal'\''s Ed25519 public key (base64 of the raw 32 bytes)\: feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.]:key:'
        '*--ca-file[A PEM file of certificate authorities to trust for HTTPS feeds, besides the system'\''s (repeatable).]:file:'
        '--connect-timeout[How long to wait for a connection to a portal (default 10s).]:span:'
        '--timeout[How long a whole fetch may take, redirects and body included (default 60s).]:span:'
        '--dialect[Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default\: each as its source is configured, else by its shape.]:dialect:{__notify-sched_complete "${___dialect[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_preview() {
    local -i ret=1
    local -ar ___dialect=('native' 'zbim' 'inotify' 'ismartnews' 'icalendar')
    local -ar arg_specs=(
        '*:feed:'
        '--from[When the daemon starts, and the window with it\: RFC 3339 (2026-03-29T09\:00\:00Z; without an offset, local time in the zone TZ names, whatever --zone says) or @SECONDS (default\: now).]:time:'
        '--days[How many days the window lasts (1 to 366).]:n:'
        '*--zone[A time zone to preview in, an IANA name such as Pacific/Auckland (repeatable; default\: TZ, else the system zone).]:zone:'
        '--locale[The user'\''s locale, such as fr_FR\: the language of localized texts and targeting'\''s locale (default\: the environment'\''s).]:locale:'
        '--tags[The user'\''s tags, comma-separated, which targeting reads.]:tags:'
        '--version[The application version the feeds are read for\: minVersion/maxVersion and targeting'\''s app.version.]:version:'
        '--install-id[The desktop'\''s install id, which places it in rollouts (default\: none, which no rollout takes).]:id:'
        '--max-popups[The user'\''s bound on popups, as max-popups in the configuration, such as 8/1d (default\: none).]:n/span:'
        '--quiet-hours[The user'\''s quiet hours, as quiet-hours in the configuration, such as 22\:00-07\:00 (default\: none).]:hh\:mm-hh\:mm:'
        '--out[Also write timeline.svg (entries as rows, days as columns, each occurrence a mark coloured by its outcome, changes of UTC offset drawn) and timeline.html (the picture with the tables) to this folder, made if missing.]:dir:'
        '--servers[With --out, also show each distinct popup of the feeds on these notification servers, each in a private Xvfb and D-Bus session, as the daemon would show it\: comma-separated names (notification-daemon, dunst, xfce4-notifyd, mate-notification-daemon, lxqt-notificationd, gnome-shell, plasma-workspace) or "installed" for every one installed here. Writes DIR/popups/SERVER/NAME.png, a contact sheet DIR/popups/SERVER.png and what each server left out.]:names:'
        '--json[Print a JSON array instead of tables.]'
        '*--allow-scheme[Also allow action URLs with this scheme (repeatable); https, http and mailto always are.]:scheme:'
        '--public-key[The portal'\''s Ed25519 public key (base64 of the raw 32 bytes)\: feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.]:key:'
        '*--ca-file[A PEM file of certificate authorities to trust for HTTPS feeds, besides the system'\''s (repeatable).]:file:'
        '--connect-timeout[How long to wait for a connection to a portal (default 10s).]:span:'
        '--timeout[How long a whole fetch may take, redirects and body included (default 60s).]:span:'
        '--dialect[Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default\: each as its source is configured, else by its shape.]:dialect:{__notify-sched_complete "${___dialect[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_receipts() {
    local -i ret=1
    local -ar arg_specs=(
        '--pending[Print the bodies that would be sent, one JSON object per line.]'
        '--send[Send the bodies waiting now.]'
        '--config[The configuration file that names the sources (default\: $XDG_CONFIG_HOME/notify-sched/config).]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_notify-sched_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _notify-sched ]]; then
    _notify-sched "${@}"
else
    compdef _notify-sched notify-sched
fi
