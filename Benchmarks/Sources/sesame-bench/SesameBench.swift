import ArgumentParser

/// The generator's benchmark: `generate --models N` for one size, `all` for the figures of
/// docs/performance.md; the runtime's: `refresh-storm`, `overhead`, `events` and the
/// fault-injected `soak`; the stores': `store-insert`, `migrate` and `launch`; the generated
/// models': `decode` and `encode`; OpenID Connect's `id-token`.
@main
struct SesameBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame-bench",
        abstract: "Times the Sesame generator, runtime and stores.",
        discussion: """
            Build in release: swift run -c release sesame-bench all
            Targets: 2,000 models in under 0.6 s, no more than 2× the Yams parse time of the same
            YAML, and linear from 500 to 2,000 models. docs/performance.md has the figures.
            """,
        subcommands: [
            GenerateBenchmark.self, AllBenchmarks.self, RefreshStormBenchmark.self, OverheadBenchmark.self,
            StoreInsertBenchmark.self, MigrateBenchmark.self, EventsBenchmark.self, SoakBenchmark.self, DateTimeBenchmark.self,
            LaunchBenchmark.self, ProcessesBenchmark.self, SharedSessionChildCommand.self, CodingCommand<DecodeDirection>.self,
            CodingCommand<EncodeDirection>.self, RefCheckProfile.self, IDTokenBenchmark.self, ReferencesBenchmark.self, DPoPBenchmark.self,
        ]
    )
}
