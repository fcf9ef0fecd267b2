import Foundation

/// The figures of one `generate` run, printed as one JSON line.
struct BenchmarkResult: Sendable {
    var models: Int
    /// The whole pipeline (parse, validate, translate, render), best of the repetitions.
    var seconds: Double
    /// `Yams.compose` of the same YAML texts alone, best of the repetitions.
    var parseSeconds: Double
    /// Lines of generated Swift.
    var swiftLines: Int

    /// `{"models": N, "seconds": …, "parse_seconds": …, "swift_lines": …}`, keys in that order.
    var jsonLine: String {
        "{\"models\": \(models), \"seconds\": \(Self.format(seconds)), \"parse_seconds\": \(Self.format(parseSeconds)), \"swift_lines\": \(swiftLines)}"
    }

    /// The pipeline's time over the parse time alone.
    var parseRatio: Double { seconds / parseSeconds }

    private static func format(_ value: Double) -> String { String(format: "%.6f", value) }
}

/// Where each stage of the pipeline spends its time, for `--stages`.
struct StageTimes: Sendable {
    /// `YAMLReader.parse` of every file: Yams plus the reader's own pass.
    var read: Double
    /// `GeneratorPipeline.validate`: reading plus translation to the IR.
    var validate: Double
    /// `SwiftRenderer.render` of the IR.
    var render: Double

    /// Translation to the IR (validation less reading).
    var translate: Double { validate - read }

    var jsonLine: String {
        func format(_ value: Double) -> String { String(format: "%.6f", value) }
        return "{\"read_seconds\": \(format(read)), \"translate_seconds\": \(format(translate)), \"render_seconds\": \(format(render))}"
    }
}
