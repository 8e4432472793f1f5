# Builds and installs notify-sched the way a Linux package does:
#
#   make                                   release build of notify-sched
#   make install PREFIX=/usr/local         (or PREFIX=~/.local; DESTDIR=… stages a package)
#   make uninstall PREFIX=/usr/local       removes what install put in place
#
# Paths inside installed files (the unit's ExecStart=, the D-Bus and desktop files' Exec=) name
# $(PREFIX), never $(DESTDIR). `install` builds the release binary only when it is missing or
# older than the sources, so `make && sudo make install` does not run the compiler as root.
# BINARY=PATH installs an already-built executable instead (the install tests use the debug one).

PREFIX ?= /usr/local
DESTDIR ?=
bindir ?= $(PREFIX)/bin
datadir ?= $(PREFIX)/share
mandir ?= $(datadir)/man
localedir ?= $(datadir)/locale
# Helpers the program runs: `preview --servers` renders popups with them.
helperdir ?= $(PREFIX)/lib/notify-sched
# systemd reads user units from <prefix>/lib/systemd/user for /usr and /usr/local, but from
# ~/.local/share/systemd/user in the home folder: it never looks in ~/.local/lib.
ifeq ($(abspath $(PREFIX)),$(abspath $(HOME)/.local))
userunitdir ?= $(datadir)/systemd/user
else
userunitdir ?= $(PREFIX)/lib/systemd/user
endif

SWIFT ?= swift
SCRATCH ?= .build
# The Swift runtime and Foundation linked in: the installed program does not depend on where the
# toolchain lives, and a daemon maps less of them (README "Installing"). Linked by lld with packed
# relative relocations (glibc 2.36 reads them) and no symbol table for other modules to bind to:
# the loader then reads a few kilobytes where the 125 000 relocations and 38 000 exported symbols
# of the default link made it map 5 MB of the file. The functions the daemon runs are placed side
# by side (scripts/symbol-order.txt, from scripts/generate-symbol-order): the kernel maps code 64 KB
# around each page touched, and scattered over the 27 MB of code they kept 12 MB of it resident.
SYMBOL_ORDER := $(CURDIR)/scripts/symbol-order.txt
# The folder it is built in reaches the program only as `.` (assertion messages name their source
# files, the debug info its sources), so that the program does not depend on where it was built
# (the Debian package; scripts/package-test compares two builds).
PREFIX_MAP := -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=. -Xcc -ffile-prefix-map=$(CURDIR)=.
# Clang's modules of the C shims (this project's and its dependencies') record the modification
# times of their headers, a fresh clone's own; the signature of each module, which every object
# importing it carries in its debug information, then differed from build to build.
NO_HEADER_TIMES := -Xcc -Xclang -Xcc -fno-pch-timestamp
SWIFT_BUILD_FLAGS ?= --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --no-export-dynamic -Xlinker --symbol-ordering-file=$(SYMBOL_ORDER) -Xlinker --no-warn-symbol-ordering \
	$(PREFIX_MAP) $(NO_HEADER_TIMES)
# LINK_MAP=PATH: the linker also writes its map there, which scripts/dependency-sizes reads.
SWIFT_BUILD_FLAGS += $(if $(LINK_MAP),-Xlinker -Map=$(LINK_MAP))
RELEASE_BINARY := $(SCRATCH)/release/notify-sched
BINARY ?= $(RELEASE_BINARY)

# What the checked-in files say before install rewrites it.
SOURCE_BINARY := /usr/bin/notify-sched
REWRITE := sed -e 's|$(SOURCE_BINARY)|$(bindir)/notify-sched|g'
FEEDS := $(notdir $(wildcard share/feeds/*))
TRANSLATIONS_SCRIPT := scripts/build-translations

.PHONY: all install uninstall

all:
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product notify-sched $(SWIFT_BUILD_FLAGS)

$(RELEASE_BINARY): Package.swift $(SYMBOL_ORDER) $(shell find Sources -type f)
	$(SWIFT) build -c release --scratch-path $(SCRATCH) --product notify-sched $(SWIFT_BUILD_FLAGS)

install: $(BINARY)
	install -Dm755 $(BINARY) $(DESTDIR)$(bindir)/notify-sched
	install -d $(DESTDIR)$(userunitdir) $(DESTDIR)$(datadir)/dbus-1/services $(DESTDIR)$(datadir)/applications
	$(REWRITE) units/notify-sched.service > $(DESTDIR)$(userunitdir)/notify-sched.service
	$(REWRITE) share/dbus-1/services/org.notify_sched.Daemon.service \
		> $(DESTDIR)$(datadir)/dbus-1/services/org.notify_sched.Daemon.service
	$(REWRITE) share/applications/notify-sched.desktop > $(DESTDIR)$(datadir)/applications/notify-sched.desktop
	chmod 644 $(DESTDIR)$(userunitdir)/notify-sched.service \
		$(DESTDIR)$(datadir)/dbus-1/services/org.notify_sched.Daemon.service \
		$(DESTDIR)$(datadir)/applications/notify-sched.desktop
	install -Dm644 share/man/man1/notify-sched.1 $(DESTDIR)$(mandir)/man1/notify-sched.1
	install -Dm644 share/man/man5/notify-sched.conf.5 $(DESTDIR)$(mandir)/man5/notify-sched.conf.5
	install -Dm644 share/completions/notify-sched.bash $(DESTDIR)$(datadir)/bash-completion/completions/notify-sched
	install -Dm644 share/completions/notify-sched.zsh $(DESTDIR)$(datadir)/zsh/site-functions/_notify-sched
	install -Dm644 share/completions/notify-sched.fish \
		$(DESTDIR)$(datadir)/fish/vendor_completions.d/notify-sched.fish
	install -d $(DESTDIR)$(datadir)/notify-sched/feeds
	install -m644 $(addprefix share/feeds/,$(FEEDS)) $(DESTDIR)$(datadir)/notify-sched/feeds/
	install -Dm755 scripts/preview-popups $(DESTDIR)$(helperdir)/preview-popups
	install -Dm644 scripts/desktop_harness.py $(DESTDIR)$(helperdir)/desktop_harness.py
	if [ -x $(TRANSLATIONS_SCRIPT) ]; then $(TRANSLATIONS_SCRIPT) $(DESTDIR)$(localedir); fi

uninstall:
	rm -f $(DESTDIR)$(bindir)/notify-sched \
		$(DESTDIR)$(userunitdir)/notify-sched.service \
		$(DESTDIR)$(datadir)/dbus-1/services/org.notify_sched.Daemon.service \
		$(DESTDIR)$(datadir)/applications/notify-sched.desktop \
		$(DESTDIR)$(mandir)/man1/notify-sched.1 \
		$(DESTDIR)$(mandir)/man5/notify-sched.conf.5 \
		$(DESTDIR)$(datadir)/bash-completion/completions/notify-sched \
		$(DESTDIR)$(datadir)/zsh/site-functions/_notify-sched \
		$(DESTDIR)$(datadir)/fish/vendor_completions.d/notify-sched.fish \
		$(DESTDIR)$(localedir)/*/LC_MESSAGES/notify-sched.mo
	rm -rf $(DESTDIR)$(datadir)/notify-sched $(DESTDIR)$(helperdir)
