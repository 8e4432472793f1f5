// swift-tools-version: 6.0
import PackageDescription

// The libFuzzer target over the whole feed parse path. A package of its own, because a fuzz
// executable has no `main` (libFuzzer brings it) and so cannot link in an ordinary build of
// the main package. Build and run it with `scripts/fuzz`, which passes `-sanitize=fuzzer,address`.
let package = Package(
    name: "notify-sched-fuzz",
    dependencies: [
        // Named, because a path dependency's identity is its folder's name, which differs per clone.
        .package(name: "notify-sched", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "notify-sched-fuzz",
            dependencies: [
                "CLibFuzzer", .product(name: "NotifySchedCore", package: "notify-sched"),
                .product(name: "NotifySchedControl", package: "notify-sched"),
            ]
        ),
        // The declaration of libFuzzer's driver, which the toolchain's fuzzer runtime defines.
        .target(name: "CLibFuzzer"),
    ]
)
