function __notify-sched_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __notify-sched_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __notify-sched_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __notify-sched_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __notify-sched_parse_tokens -S
    set -l unparsed_tokens (__notify-sched_tokens -pc)
    switch $unparsed_tokens[1]
    case 'notify-sched'
        __notify-sched_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'validate'
            __notify-sched_parse_subcommand -r 1 'allow-scheme=+' 'public-key=' 'ca-file=+' 'connect-timeout=' 'timeout=' 'dialect=' 'version' 'h/help'
        case 'list'
            __notify-sched_parse_subcommand 0 'config=' 'feed=+' 'now=' 'upcoming=' 'source=+' 'state=+' 'id=+' 'limit=' 'offset=' 'json' 'allow-scheme=+' 'public-key=' 'ca-file=+' 'connect-timeout=' 'timeout=' 'dialect=' 'version' 'h/help'
        case 'test'
            __notify-sched_parse_subcommand 2 'title=' 'body=' 'markup' 'action-label=' 'action-url=' 'u/urgency=' 't/expire-time=' 'i/icon=' 'h/hint=+' 'in=' 'w/wait' 'allow-scheme=+' 'version' '?/help'
        case 'handle'
            __notify-sched_parse_subcommand 1 'no-alert' 'check' 'snooze=' 'allow-scheme=+' 'public-key=' 'ca-file=+' 'connect-timeout=' 'timeout=' 'dialect=' 'version' 'h/help'
        case 'daemon'
            __notify-sched_parse_subcommand 0 'config=' 'feed=+' 'public-key=' 'version' 'h/help'
        case 'event'
            __notify-sched_parse_subcommand 1 'version' 'h/help'
        case 'status'
            __notify-sched_parse_subcommand 0 'json' 'version' 'h/help'
        case 'history'
            __notify-sched_parse_subcommand 0 'since=' 'source=' 'config=' 'json' 'version' 'h/help'
        case 'keygen'
            __notify-sched_parse_subcommand 0 'output=' 'version' 'h/help'
        case 'sign'
            __notify-sched_parse_subcommand 1 'key=' 'version' 'h/help'
        case 'sync'
            __notify-sched_parse_subcommand 0 'config=' 'feed=+' 'allow-scheme=+' 'public-key=' 'ca-file=+' 'connect-timeout=' 'timeout=' 'dialect=' 'version' 'h/help'
        case 'preview'
            __notify-sched_parse_subcommand -r 1 'from=' 'days=' 'zone=+' 'locale=' 'tags=' 'version=' 'install-id=' 'max-popups=' 'quiet-hours=' 'out=' 'servers=' 'json' 'allow-scheme=+' 'public-key=' 'ca-file=+' 'connect-timeout=' 'timeout=' 'dialect=' 'version' 'h/help'
        case 'receipts'
            __notify-sched_parse_subcommand 0 'pending' 'send' 'config=' 'version' 'h/help'
        case 'help'
            __notify-sched_parse_subcommand -r 1 'version'
        end
    end
end

function __notify-sched_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __notify-sched_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __notify-sched_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __notify-sched_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__notify-sched_tokens -p)
    if test -z "$(__notify-sched_tokens -t)"
        set -l index (count (__notify-sched_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'notify-sched' -f
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'validate' -d 'Check feeds and list every problem.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'list' -d 'Show the schedule: each entry with its next occurrences.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'test' -d 'Show a test popup the way a scheduled notification is shown.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'handle' -d 'Act on a notification notify-sched delivered.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'daemon' -d 'Run the user-session daemon in the foreground.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'event' -d 'Post a named event to the running daemon.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'status' -d 'Show the daemon, its sources and the notification server.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'history' -d 'Show what was shown, when, and what became of it.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'keygen' -d 'Make an Ed25519 key pair for signing feeds.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'sign' -d 'Sign a feed: write FEED.sig.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'sync' -d 'Check every source now, ignoring check periods, and print what changed.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'preview' -d 'Show when, for whom and how a feed\'s popups will show, before publishing it.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'receipts' -d 'Show or send the counts that sources with receipts on report to their collector.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_positional "notify-sched" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate"' -l 'allow-scheme' -d 'Also allow action URLs with this scheme (repeatable); https, http and mailto always are.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate" public-key' -l 'public-key' -d 'The portal\'s Ed25519 public key (base64 of the raw 32 bytes): feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate"' -l 'ca-file' -d 'A PEM file of certificate authorities to trust for HTTPS feeds, besides the system\'s (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate" connect-timeout' -l 'connect-timeout' -d 'How long to wait for a connection to a portal (default 10s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate" timeout' -l 'timeout' -d 'How long a whole fetch may take, redirects and body included (default 60s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate" dialect' -l 'dialect' -d 'Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default: each as its source is configured, else by its shape.' -rfka 'native zbim inotify ismartnews icalendar'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched validate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" config' -l 'config' -d 'The configuration file whose sources to list when no daemon runs (default: $XDG_CONFIG_HOME/notify-sched/config).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list"' -l 'feed' -d 'A feed file or http(s):// URL to list (repeatable). A URL is fetched (conditional GET) and cached; when the fetch fails, the last good copy is used with a warning.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" now' -l 'now' -d 'The time to list from, RFC 3339 (2026-03-29T09:00:00Z; without an offset it is local time) or @SECONDS.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" upcoming' -l 'upcoming' -d 'How many occurrences to show per entry (1 to 1000).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list"' -l 'source' -d 'Only the entries of this source: its name in the configuration, or its feed\'s path or URL (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list"' -l 'state' -d 'Only the entries in this state: pending, delivered, acted, ignored, reminded, closed, missed, suppressed, or (nothing recorded and no time to come) ended, expired or "other version" (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list"' -l 'id' -d 'Only the entries whose id matches this shell pattern, such as \'standup\' or \'news-*\' (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" limit' -l 'limit' -d 'How many entries to show, the soonest first (default 100; 0 for all).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" offset' -l 'offset' -d 'How many entries to skip before the first shown: the next page.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" json' -l 'json' -d 'Print a JSON array instead of a table.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list"' -l 'allow-scheme' -d 'Also allow action URLs with this scheme (repeatable); https, http and mailto always are.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" public-key' -l 'public-key' -d 'The portal\'s Ed25519 public key (base64 of the raw 32 bytes): feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list"' -l 'ca-file' -d 'A PEM file of certificate authorities to trust for HTTPS feeds, besides the system\'s (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" connect-timeout' -l 'connect-timeout' -d 'How long to wait for a connection to a portal (default 10s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" timeout' -l 'timeout' -d 'How long a whole fetch may take, redirects and body included (default 60s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" dialect' -l 'dialect' -d 'Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default: each as its source is configured, else by its shape.' -rfka 'native zbim inotify ismartnews icalendar'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" title' -l 'title' -d 'The popup\'s title (default: a title that says it is a test).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" body' -l 'body' -d 'The popup\'s body: plain text, or markup with --markup.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" markup' -l 'markup' -d 'The body is markup (<b>, <i>, <u>, <a href>), cleaned to that and shown as text where the server reads none.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" action-label' -l 'action-label' -d 'The action button\'s label (default: "More Info", translated).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" action-url' -l 'action-url' -d 'The URL the action button and a click on the popup open.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" u urgency' -s 'u' -l 'urgency' -d 'low, normal or critical.' -rfka 'low normal critical'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" expire-time t' -s 't' -l 'expire-time' -d 'How long the popup stays, in milliseconds as notify-send takes it (0: until it is closed; default: as the server likes).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" i icon' -s 'i' -l 'icon' -d 'An icon name from the icon theme, or a file path.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test"' -s 'h' -l 'hint' -d 'A hint as notify-send takes it: string:sound-name:NAME (a sound-theme sound, for a server that plays them) or string:image-path:PATH (a picture\'s absolute path or file:// URI); repeatable.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" in' -l 'in' -d 'Show it after this long (90s, 5min, 1h).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" w wait' -s 'w' -l 'wait' -d 'Stay until the popup is acted on or closed, and print what happened.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test"' -l 'allow-scheme' -d 'Also allow action URLs with this scheme (repeatable); https, http and mailto always are.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched test" ? help' -s '?' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" no-alert' -l 'no-alert' -d 'Act at once, without asking.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" check' -l 'check' -d 'Only say whether ID is a notification notify-sched can handle; do nothing with it.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" snooze' -l 'snooze' -d 'Remind me of it again after this long (10min, 1h, 2d), or tomorrow (at 09:00), instead of after the remind period, without asking.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle"' -l 'allow-scheme' -d 'Also allow action URLs with this scheme (repeatable); https, http and mailto always are.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" public-key' -l 'public-key' -d 'The portal\'s Ed25519 public key (base64 of the raw 32 bytes): feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle"' -l 'ca-file' -d 'A PEM file of certificate authorities to trust for HTTPS feeds, besides the system\'s (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" connect-timeout' -l 'connect-timeout' -d 'How long to wait for a connection to a portal (default 10s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" timeout' -l 'timeout' -d 'How long a whole fetch may take, redirects and body included (default 60s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" dialect' -l 'dialect' -d 'Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default: each as its source is configured, else by its shape.' -rfka 'native zbim inotify ismartnews icalendar'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched handle" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched daemon" config' -l 'config' -d 'The configuration file (default: $XDG_CONFIG_HOME/notify-sched/config).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched daemon"' -l 'feed' -d 'Follow this feed (a path or an http(s) URL) instead of the configured ones (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched daemon" public-key' -l 'public-key' -d 'The Ed25519 public key (base64) the --feed feeds must be signed with.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched daemon" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched daemon" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched event" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched event" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched status" json' -l 'json' -d 'Print the daemon\'s status as a JSON object.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched status" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched history" since' -l 'since' -d 'How far back: a span (30min, 2h, 7d) or a time (RFC 3339, a date, @SECONDS; default: all kept).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched history" source' -l 'source' -d 'Only this source: its name in the configuration, or its feed\'s path or URL.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched history" config' -l 'config' -d 'The configuration file that names the sources (default: $XDG_CONFIG_HOME/notify-sched/config).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched history" json' -l 'json' -d 'Print a JSON array instead of a table.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched history" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched keygen" output' -l 'output' -d 'Where to write the private key.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched keygen" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched keygen" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sign" key' -l 'key' -d 'The private key file written by `notify-sched keygen`.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sign" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sign" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync" config' -l 'config' -d 'The configuration file (default: $XDG_CONFIG_HOME/notify-sched/config), when no daemon runs.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync"' -l 'feed' -d 'Check this portal feed URL instead of the configured sources, without the daemon (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync"' -l 'allow-scheme' -d 'Also allow action URLs with this scheme (repeatable); https, http and mailto always are.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync" public-key' -l 'public-key' -d 'The portal\'s Ed25519 public key (base64 of the raw 32 bytes): feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync"' -l 'ca-file' -d 'A PEM file of certificate authorities to trust for HTTPS feeds, besides the system\'s (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync" connect-timeout' -l 'connect-timeout' -d 'How long to wait for a connection to a portal (default 10s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync" timeout' -l 'timeout' -d 'How long a whole fetch may take, redirects and body included (default 60s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync" dialect' -l 'dialect' -d 'Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default: each as its source is configured, else by its shape.' -rfka 'native zbim inotify ismartnews icalendar'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched sync" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" from' -l 'from' -d 'When the daemon starts, and the window with it: RFC 3339 (2026-03-29T09:00:00Z; without an offset, local time in the zone TZ names, whatever --zone says) or @SECONDS (default: now).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" days' -l 'days' -d 'How many days the window lasts (1 to 366).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview"' -l 'zone' -d 'A time zone to preview in, an IANA name such as Pacific/Auckland (repeatable; default: TZ, else the system zone).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" locale' -l 'locale' -d 'The user\'s locale, such as fr_FR: the language of localized texts and targeting\'s locale (default: the environment\'s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" tags' -l 'tags' -d 'The user\'s tags, comma-separated, which targeting reads.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" version' -l 'version' -d 'The application version the feeds are read for: minVersion/maxVersion and targeting\'s app.version.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" install-id' -l 'install-id' -d 'The desktop\'s install id, which places it in rollouts (default: none, which no rollout takes).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" max-popups' -l 'max-popups' -d 'The user\'s bound on popups, as max-popups in the configuration, such as 8/1d (default: none).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" quiet-hours' -l 'quiet-hours' -d 'The user\'s quiet hours, as quiet-hours in the configuration, such as 22:00-07:00 (default: none).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" out' -l 'out' -d 'Also write timeline.svg (entries as rows, days as columns, each occurrence a mark coloured by its outcome, changes of UTC offset drawn) and timeline.html (the picture with the tables) to this folder, made if missing.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" servers' -l 'servers' -d 'With --out, also show each distinct popup of the feeds on these notification servers, each in a private Xvfb and D-Bus session, as the daemon would show it: comma-separated names (notification-daemon, dunst, xfce4-notifyd, mate-notification-daemon, lxqt-notificationd, gnome-shell, plasma-workspace) or "installed" for every one installed here. Writes DIR/popups/SERVER/NAME.png, a contact sheet DIR/popups/SERVER.png and what each server left out.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" json' -l 'json' -d 'Print a JSON array instead of tables.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview"' -l 'allow-scheme' -d 'Also allow action URLs with this scheme (repeatable); https, http and mailto always are.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" public-key' -l 'public-key' -d 'The portal\'s Ed25519 public key (base64 of the raw 32 bytes): feeds must then be signed (FEED.sig), not older than the last accepted version, and not expired.' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview"' -l 'ca-file' -d 'A PEM file of certificate authorities to trust for HTTPS feeds, besides the system\'s (repeatable).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" connect-timeout' -l 'connect-timeout' -d 'How long to wait for a connection to a portal (default 10s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" timeout' -l 'timeout' -d 'How long a whole fetch may take, redirects and body included (default 60s).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" dialect' -l 'dialect' -d 'Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an error. Default: each as its source is configured, else by its shape.' -rfka 'native zbim inotify ismartnews icalendar'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched preview" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched receipts" pending' -l 'pending' -d 'Print the bodies that would be sent, one JSON object per line.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched receipts" send' -l 'send' -d 'Send the bodies waiting now.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched receipts" config' -l 'config' -d 'The configuration file that names the sources (default: $XDG_CONFIG_HOME/notify-sched/config).' -rfka ''
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched receipts" version' -l 'version' -d 'Show the version.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched receipts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notify-sched' -n '__notify-sched_should_offer_completions_for_flags_or_options "notify-sched help" version' -l 'version' -d 'Show the version.'
