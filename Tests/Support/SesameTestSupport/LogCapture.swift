import Foundation
import Logging

/// Keeps every line a logger writes, at every level, as swift-log's `StreamLogHandler` would
/// print it (without the timestamp): level, label, metadata (sorted by key), source,
/// message. Tests read the lines, or look for secrets in them.
public final class LogCapture: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String] = []

    /// Creates an empty capture.
    public init() {}

    /// Every line so far, in the order they were logged.
    public var lines: [String] { lock.withLock { stored } }

    /// Every line so far, joined with newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// A logger at level `trace` whose lines this capture keeps.
    public func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { label in Handler(capture: self, label: label) }
        logger.logLevel = .trace
        return logger
    }

    /// Adds a line, as the logger does; tests also use a capture to record lines of their own.
    public func append(_ line: String) {
        lock.withLock { stored.append(line) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        let label: String
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            capture.append("\(event.level) \(label) :\(rendered) [\(event.source)] \(event.message)")
        }
    }
}
