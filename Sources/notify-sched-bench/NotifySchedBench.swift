import ArgumentParser

/// Benchmarks that print figures and ratios against baselines measured in the same run.
@main
struct NotifySchedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-sched-bench",
        abstract: "Measure notify-sched against baselines in one run (use a release build).",
        subcommands: [
            CalendarBenchmark.self, FeedBenchmark.self, FeedParseProbe.self, FleetBenchmark.self, PreviewBenchmark.self,
            ReloadBenchmark.self,
            WheelBenchmark.self,
        ]
    )
}
