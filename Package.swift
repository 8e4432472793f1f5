// swift-tools-version: 6.0
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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Only the benchmark uses it: swift-collections' `Heap` is a baseline for the timer wheel.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // Pure logic: feeds, schedule, time rules. No C, no I/O, no clock.
        .target(
            name: "NotifySchedCore",
            swiftSettings: strictSettings
        ),
        // timerfd, which glibc declares in a header `import Glibc` leaves out. Part of glibc: no
        // pkg-config name and nothing to install.
        .systemLibrary(name: "CTimerfd"),
        // The machine around the core: the tz database, files, environment, the wall clock.
        .target(
            name: "NotifySchedPlatform",
            dependencies: ["NotifySchedCore", "CTimerfd"],
            swiftSettings: strictSettings
        ),
        // Durable state: the firing ledger and what handling and the seed dialects remember, in SQLite.
        .target(
            name: "NotifySchedStore",
            dependencies: ["NotifySchedCore", .product(name: "GRDB", package: "GRDB.swift")],
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
            dependencies: ["NotifySchedCore", "NotifySchedPlatform", "CLibnotify"],
            swiftSettings: strictSettings
        ),
        // The user-session daemon: feeds, the timer wheel, the ledger and the desktop, on one loop.
        .target(
            name: "NotifySchedDaemon",
            dependencies: ["NotifySchedCore", "NotifySchedPlatform", "NotifySchedStore", "NotifySchedDesktop"],
            swiftSettings: strictSettings
        ),
        // The command-line interface as a library, so tests reach it directly.
        .target(
            name: "NotifySchedCommands",
            dependencies: [
                "NotifySchedCore",
                "NotifySchedPlatform",
                "NotifySchedDesktop",
                "NotifySchedDaemon",
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
        .executableTarget(
            name: "notify-sched-bench",
            dependencies: [
                "NotifySchedCore",
                "NotifySchedPlatform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedCoreTests",
            dependencies: ["NotifySchedCore", "NotifySchedPlatform"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedStoreTests",
            dependencies: ["NotifySchedStore", "NotifySchedCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NotifySchedCommandsTests",
            dependencies: ["NotifySchedCommands", "NotifySchedPlatform", "NotifySchedCore"],
            swiftSettings: strictSettings
        ),
    ]
)
