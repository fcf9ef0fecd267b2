import Foundation
import Testing

/// Fails a test when a secret its back-end issued (tokens, one-time codes, the client
/// secret and passwords it accepted) shows in anything the SDK let the test see: the
/// runtime's log lines (metadata included), and the description, debug description, dump
/// and mirror of every state, event, result and error, of the session stores and of the
/// service itself. A failure names the kind of secret, a redacted form and where it
/// showed, never the secret. Each suite prints a one-line summary of its scans.
///
/// Every end-to-end suite carries it (`@Suite("…", .secretScan)`): it inherits to each test,
/// and ``withEndToEnd(accessTokenLifetime:separateAuthorizationServer:dpop:_:)`` fails a test that runs without it.
struct SecretScan: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    /// A scope around the suite, for its summary, and one around each test case, for its scan.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> SecretScan? {
        test.isSuite || testCase != nil ? self : nil
    }

    func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isSuite {
            let tally = ScanTally()
            defer { print(tally.summary(of: test.displayName ?? test.name)) }
            try await ScanTally.$current.withValue(tally) { try await function() }
            return
        }
        let record = ScanRecord()
        var thrown: (any Error)?
        do {
            try await ScanRecord.$current.withValue(record) { try await function() }
        } catch {
            record.show(error, as: "what the test threw")
            thrown = error
        }
        let report = record.scan()
        report.recordIssues(at: test.sourceLocation)
        ScanTally.current?.add(report)
        if let thrown { throw thrown }
    }
}

extension Trait where Self == SecretScan {
    /// Scans what the test saw for the secrets its back-end issued; see ``SecretScan``.
    static var secretScan: Self { Self() }
}

extension ScanReport {
    /// Records one issue per finding, each naming the secret's kind and where it showed.
    func recordIssues(at sourceLocation: SourceLocation) {
        for finding in findings {
            Issue.record("secret scan: \(finding)", sourceLocation: sourceLocation)
        }
    }
}

/// The figures of a suite's scans, and of the whole run's, for the summary lines.
final class ScanTally: @unchecked Sendable {
    /// The tally of the suite running in this task.
    @TaskLocal static var current: ScanTally?
    private static let run = ScanTally()

    // Guarded by `lock`.
    private let lock = NSLock()
    private var tests = 0
    private var secrets = 0
    private var logLines = 0
    private var texts = 0
    private var findings = 0

    /// Adds a test's report to this tally and to the run's.
    func add(_ report: ScanReport) {
        for tally in [self, Self.run] {
            tally.lock.withLock {
                tally.tests += 1
                tally.secrets += report.secrets
                tally.logLines += report.logLines
                tally.texts += report.texts
                tally.findings += report.findings.count
            }
        }
    }

    /// The suite's figures, then the run's so far, in one line without any secret.
    func summary(of suite: String) -> String {
        "secret scan, \(suite): \(figures); whole run so far: \(Self.run.figures)"
    }

    private var figures: String {
        lock.withLock {
            "\(tests) tests, \(secrets) secrets looked for in \(logLines) log lines and \(texts) texts, \(findings) found"
        }
    }
}
