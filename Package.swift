// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode with the upcoming features that make
/// mistakes visible at compile time. CI adds `-warnings-as-errors` on the command line.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "notify-sched",
    products: [
        .executable(name: "notify-sched", targets: ["notify-sched"]),
        .library(name: "NotifySchedCore", targets: ["NotifySchedCore"]),
        .library(name: "NotifySchedControl", targets: ["NotifySchedControl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Only the benchmark uses it: swift-collections' `Heap` is a baseline for the timer wheel.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Portal feeds over HTTP(S): docs/operating-a-portal.md "Feeds over HTTP(S)" says why AsyncHTTPClient.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Ed25519 feed signatures (DESIGN §6) and the cache's file names.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // Pure logic: feeds, schedule, time rules. No C, no I/O, no clock.
        .target(
            name: "NotifySchedCore",
            swiftSettings: strictSettings
        ),
        // The control interface's wire, which the daemon serves and the CLI calls: its bus names and
        // introspection data, the calls and their typed replies, the status and the listing. Pure
        // values, like the core: the CLI reaches the daemon through it without linking the daemon.
        .target(
            name: "NotifySchedControl",
            dependencies: ["NotifySchedCore"],
            swiftSettings: strictSettings
        ),
        // timerfd and malloc_trim, which glibc declares in headers `import Glibc` leaves out.
        // Part of glibc: no pkg-config name and nothing to install.
        .systemLibrary(name: "CLinux"),
        // The machine around the core: the tz database, files, environment, the wall clock.
        .target(
            name: "NotifySchedPlatform",
            dependencies: ["NotifySchedCore", "CLinux"],
            swiftSettings: strictSettings
        ),
        // Durable state: the firing ledger and what handling and the seed dialects remember, in SQLite.
        .target(
            name: "NotifySchedStore",
            dependencies: ["NotifySchedCore", "NotifySchedPlatform", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        // libnotify and GIO, as the C libraries Debian ships. Only NotifySchedDesktop imports it.
        .systemLibrary(
            name: "CLibnotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev", "libglib2.0-dev"])]
        ),
        // Talking to the desktop: popups through libnotify, URLs through GIO. Owns the GLib main loop.
        .target(
            name: "NotifySchedDesktop",
            dependencies: ["NotifySchedCore", "NotifySchedControl", "NotifySchedPlatform", "CLibnotify"],
            swiftSettings: strictSettings
        ),
        // The user-session daemon: feeds, the timer wheel, the ledger and the desktop, on one loop.
        .target(
            name: "NotifySchedDaemon",
            dependencies: [
                "NotifySchedCore", "NotifySchedControl", "NotifySchedPlatform", "NotifySchedStore",
                "NotifySchedDesktop", "NotifySchedNetwork",
            ],
            swiftSettings: strictSettings
        ),
        // Portal feeds: fetching over HTTP(S), the last-good cache, signatures and the versions seen.
        // Its own module rather than part of Platform, so that NIO, BoringSSL and swift-crypto stay
        // out of what the benchmark and the core tests link, and one module owns the fetch thread.
        .target(
            name: "NotifySchedNetwork",
            dependencies: [
                "NotifySchedCore",
                "NotifySchedPlatform",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The command-line interface as a library, so tests reach it directly.
        .target(
            name: "NotifySchedCommands",
            dependencies: [
                "NotifySchedCore",
                "NotifySchedControl",
                "NotifySchedPlatform",
                "NotifySchedStore",
                "NotifySchedDesktop",
                "NotifySchedDaemon",
                "NotifySchedNetwork",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "notify-sched",
            dependencies: [
                "NotifySchedCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The fleet simulator: many desktops polling one portal in virtual time, each with the
        // daemon's own polling policy (`notify-sched-bench fleet`, and the tests at a smaller scale).
        .target(
            name: "NotifySchedFleet",
            dependencies: ["NotifySchedCore"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "notify-sched-bench",
            dependencies: [
                "NotifySchedCore",
                "NotifySchedFleet",
                "NotifySchedPlatform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedCoreTests",
            dependencies: ["NotifySchedCore", "NotifySchedPlatform", "NotifySchedTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedControlTests",
            dependencies: ["NotifySchedControl", "NotifySchedCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedFleetTests",
            dependencies: ["NotifySchedFleet", "NotifySchedCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedStoreTests",
            // GRDB itself to write databases of an earlier schema, as an older notify-sched left them.
            dependencies: [
                "NotifySchedStore", "NotifySchedCore", "NotifySchedTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // The real daemon driver embedded in virtual time: a manual clock, a recording desktop,
        // a temporary state database.
        .testTarget(
            name: "NotifySchedDaemonTests",
            dependencies: [
                "NotifySchedDaemon", "NotifySchedCore", "NotifySchedControl", "NotifySchedPlatform",
                "NotifySchedStore", "NotifySchedNetwork", "NotifySchedTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedCommandsTests",
            dependencies: [
                "NotifySchedCommands", "NotifySchedControl", "NotifySchedPlatform", "NotifySchedCore",
                "NotifySchedTesting",
            ],
            swiftSettings: strictSettings
        ),
        // Test support: a real HTTP(S) portal on 127.0.0.1 (Python's http.server), test certificates,
        // a recording notifier, and the traits that run tests off Swift concurrency's pool
        // (`ExecutorTrait`).
        .target(
            name: "NotifySchedTesting",
            dependencies: ["NotifySchedCore"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedNetworkTests",
            dependencies: ["NotifySchedNetwork", "NotifySchedCore", "NotifySchedPlatform", "NotifySchedTesting"],
            swiftSettings: strictSettings
        ),
    ]
)
