import Foundation
import ReferenceSDK
import SesameTestSupport

/// Everything one end-to-end test saw, kept for its secret scan (``SecretScan``): the
/// texts of every value, error and event shown to it, the log captures, session stores and
/// services the support made for the test, and the secrets its back-ends issued.
///
/// The scan's trait makes one per test and sets it as ``current`` while the test runs;
/// ``withEndToEnd(accessTokenLifetime:separateAuthorizationServer:dpop:_:)`` refuses to run without one.
final class ScanRecord: @unchecked Sendable {
    /// The record of the test running in this task.
    @TaskLocal static var current: ScanRecord?

    // Guarded by `lock`.
    private let lock = NSLock()
    /// Each text shown, with where it was first seen.
    private var texts: [String: String] = [:]
    private var captures: [LogCapture] = []
    private var stores: [InMemorySessionStore<AuthenticationDetails>] = []
    private var services: [AuthenticationService<ReferenceSDKSchema>] = []
    private var secrets: [Secret] = []

    /// Keeps the texts an app can make of `value` (see ``Rendering``), as seen in `origin`.
    func show(_ value: Any, as origin: String) {
        let rendered = Rendering.texts(of: value)
        lock.withLock {
            for text in rendered where texts[text] == nil { texts[text] = origin }
        }
    }

    /// Scans every line `logs` holds at the end of the test.
    func watch(_ logs: LogCapture) {
        lock.withLock {
            if !captures.contains(where: { $0 === logs }) { captures.append(logs) }
        }
    }

    /// Scans what `store` holds when the test's back-end stops.
    func watch(_ store: InMemorySessionStore<AuthenticationDetails>) {
        lock.withLock {
            if !stores.contains(where: { $0 === store }) { stores.append(store) }
        }
    }

    /// Scans `service` itself when the test's back-end stops, then lets go of it.
    func watch(_ service: AuthenticationService<ReferenceSDKSchema>) {
        lock.withLock { services.append(service) }
    }

    /// Looks for `secret` too: one the test made up rather than one a back-end issued.
    func lookFor(_ secret: Secret) {
        lock.withLock { secrets.append(secret) }
    }

    /// Called as the test's back-end stops: renders the services from inside and lets go of
    /// them (so they end as they would without the scan), renders the stores' sessions,
    /// and takes the secrets the back-end issued.
    func close(_ backEnd: BackEnd) async {
        let (services, stores) = lock.withLock {
            defer { self.services = [] }
            return (self.services, self.stores)
        }
        for service in services {
            let rendered = await service.renderedFromInside()
            lock.withLock {
                for text in rendered where texts[text] == nil { texts[text] = "the service" }
            }
        }
        for store in stores {
            show(Result { try store.load() }, as: "a session store")
        }
        let issued = await backEnd.issuedSecrets()
        lock.withLock { secrets.append(contentsOf: issued) }
    }

    /// Looks for every secret in every text and log line kept.
    func scan() -> ScanReport {
        let (secrets, texts, captures) = lock.withLock { (self.secrets, self.texts, self.captures) }
        var lines: [(text: String, origin: String)] = []
        for (index, capture) in captures.enumerated() {
            for (number, line) in capture.lines.enumerated() {
                lines.append((line, "log line \(number + 1) of capture \(index + 1)"))
            }
        }
        let everything = lines + texts.map { (text: $0.key, origin: $0.value) }
        var findings: [Finding] = []
        for secret in Set(secrets) {
            for (text, origin) in everything where secret.occurs(in: text) {
                let finding = Finding(secret: secret, origin: origin)
                if !findings.contains(finding) { findings.append(finding) }
            }
        }
        return ScanReport(findings: findings, secrets: Set(secrets).count, logLines: lines.count, texts: texts.count)
    }
}

/// A secret to look for. Its description, debug description and mirror show its kind and
/// a redacted form only, so that a report or a failed expectation never prints it.
struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What it is (`accessToken`, `oneTimeCode`, …).
    var kind: String
    var value: String

    /// At most the first 4 characters of a long secret, and its length.
    var redacted: String {
        let shown = value.count >= 20 ? "\(value.prefix(4))…" : "…"
        return "\(shown) (\(value.count) characters)"
    }

    var description: String { "\(kind) \(redacted)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["kind": kind]) }

    /// Whether `text` shows the secret as is, form-encoded, or (a client secret) inside
    /// the demo client's HTTP Basic credentials. A one-time code counts only as a whole
    /// number, not as digits inside a longer one (a timestamp, a port).
    func occurs(in text: String) -> Bool {
        if kind == "oneTimeCode" {
            return text.ranges(of: value).contains { range in
                let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : " "
                let after = range.upperBound < text.endIndex ? text[range.upperBound] : " "
                return !before.isWholeNumber && !after.isWholeNumber
            }
        }
        return forms.contains { text.contains($0) }
    }

    private var forms: Set<String> {
        var forms: Set<String> = [value]
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { forms.insert(encoded) }
        if kind == "clientSecret" { forms.insert(Data("\(BackEnd.clientID):\(value)".utf8).base64EncodedString()) }
        return forms
    }
}

/// A secret seen where it must not be: its kind and redacted form, and where.
struct Finding: Sendable, Hashable, CustomStringConvertible {
    var secret: Secret
    var origin: String

    var description: String { "\(secret) shows in \(origin)" }
}

/// What a scan found, and how much it looked at.
struct ScanReport: Sendable {
    var findings: [Finding]
    /// Distinct secrets looked for.
    var secrets: Int
    var logLines: Int
    /// Distinct texts of values, errors, events, stores and services.
    var texts: Int
}
