import Foundation
import Logging

/// Keeps every line the service logs, at every level, as swift-log's `StreamLogHandler`
/// would print it (without the timestamp): level, label, metadata, source, message. Tests
/// read the lines; the secret scan looks for secrets in them.
final class LogCapture: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    func logger(label: String) -> Logger {
        var logger = Logger(label: label) { label in Handler(capture: self, label: label) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) {
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
