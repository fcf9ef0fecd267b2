import Foundation
import Logging
@_spi(Generated) import ReferenceSDK
import ReferenceSDKTestSupport
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// Runs a soak: sends `configuration.requests` operations of the generated ReferenceSDK
/// through an ``AuthenticationService`` over the fault-injecting `InMemoryBackEnd`, in waves of
/// `configuration.concurrency` concurrent requests, and reports how each request ended and
/// what the back-end saw (``SoakReport``).
///
/// The clock moves between waves only, by `secondsPerRequest` per request, so tokens expire
/// and the schema's leeway triggers proactive refreshes as the run goes; a refresh then
/// reaches the back-end at the very time the runtime counted it, and the back-end checks
/// the schema's refresh window exactly. After the last wave the run turns the faults off
/// and checks that the service's state and stored credential agree with the back-end.
public struct SoakDriver: Sendable {
    /// The run's configuration.
    public let configuration: SoakConfiguration

    /// The origin the soak's back-end serves, the one its redirects lead to, and its client.
    static let baseURL = URL(string: "https://soak.sesame.test")!
    static let foreignBaseURL = URL(string: "https://mirror.soak.test")!
    static let client = ClientCredentials(clientID: "soak", clientSecret: "soak-client-secret")

    /// Creates a driver; `configuration.requests` and `concurrency` must be at least 1.
    public init(configuration: SoakConfiguration) {
        precondition(configuration.requests >= 1 && configuration.concurrency >= 1, "a soak needs requests and concurrency")
        self.configuration = configuration
    }

    /// Runs the soak and reports it. Never throws: every failure is a figure of the report.
    public func run() async -> SoakReport {
        let clock = ManualClock()
        let backEnd = InMemoryBackEnd(
            baseURL: Self.baseURL, foreignBaseURL: Self.foreignBaseURL, client: Self.client,
            now: { clock.now }, seed: configuration.seed, faults: configuration.faults,
            tokenLifetime: configuration.tokenLifetime, keepsRequests: false)
        let store = InMemorySessionStore<AuthenticationDetails>()
        let service = AuthenticationService<ReferenceSDKSchema>(
            configuration: .init(
                baseURL: Self.baseURL, client: Self.client, transport: backEnd, now: { clock.now },
                logger: Logger(label: "sesame-soak") { _ in SwiftLogNoOpLogHandler() }, sessionStore: store,
                receivesServerEvents: false, authorizationServerURL: Self.baseURL))
        let ledger = SoakLedger(requests: configuration.requests)
        let supervisor = SignInSupervisor(service: service, ledger: ledger)
        var operations = SeededRandom(seed: ~configuration.seed)
        let started = ContinuousClock.now

        await supervisor.ensureSignedIn()
        var stalled = false
        var next = 0
        while next < configuration.requests, !stalled {
            let wave = next..<min(next + configuration.concurrency, configuration.requests)
            let barrier = WaveBarrier(count: wave.count)
            for id in wave {
                let operation = SoakOperation.random(using: &operations)
                Task {
                    let outcome = await operation.perform(on: service, id: id)
                    ledger.record(id, outcome)
                    if operation == .createNote { ledger.recordWrite(id, succeeded: outcome.isSuccess) }
                    if !outcome.isSuccess { await supervisor.ensureSignedIn() }
                    barrier.arrive()
                }
            }
            stalled = !(await barrier.wait(timeout: configuration.stallTimeout))
            clock.advance(by: Double(wave.count) * configuration.secondsPerRequest)
            next = wave.upperBound
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)

        let endState =
            stalled
            ? "not checked: a wave stalled"
            : await Self.endStateProblem(
                service: service, store: store, backEnd: backEnd, clock: clock,
                supervisor: supervisor, tokenLifetime: configuration.tokenLifetime)
        var windowViolations = 0
        if let refresh = ReferenceSDKSchema.description.credential.refresh {
            windowViolations = await backEnd.windowViolations(
                RefreshWindow(
                    maxRefreshes: refresh.maxRefreshes,
                    per: refresh.window / .seconds(1)))
        }
        let lostWrites = await Self.lostWriteProblems(backEnd: backEnd, ledger: ledger)
        return SoakReport(
            configuration: configuration, ledger: ledger.counts, tally: await backEnd.tally,
            windowViolations: windowViolations, lostWrites: lostWrites, signInGaveUp: await supervisor.gaveUp, endStateProblem: endState,
            seconds: seconds)
    }

    /// The notes whose answer the back-end lost after creating them, and how many of those
    /// the client did not see fail, or the back-end did not create: a request the SDK sent
    /// again on its own would end in a success (and reach the back-end a second time,
    /// which `Tally.resentWrites` counts).
    static func lostWriteProblems(backEnd: InMemoryBackEnd, ledger: SoakLedger) async -> (count: Int, problems: Int) {
        let texts = await backEnd.lostWrites
        var problems = 0
        for text in texts {
            let id = Int(text.dropFirst("soak-".count))
            let created = await backEnd.created(text)
            if !created || id.flatMap(ledger.writeSucceeded) != false { problems += 1 }
        }
        return (texts.count, problems)
    }

    /// Why the state at the end of the run is not consistent, nil when it is: with the
    /// faults off, the service must be signed in, its stored credential must be the
    /// back-end's current one for the same user (no rotation lost), and once that credential
    /// has expired an operation must still succeed for that user through a refresh.
    static func endStateProblem(
        service: AuthenticationService<ReferenceSDKSchema>, store: InMemorySessionStore<AuthenticationDetails>,
        backEnd: InMemoryBackEnd, clock: ManualClock, supervisor: SignInSupervisor,
        tokenLifetime: Int
    ) async -> String? {
        await backEnd.setFaults(.none)
        await supervisor.ensureSignedIn()
        guard case .authenticated(let details) = await service.state else { return "the service is not signed in" }
        guard let stored = try? store.load(), stored.details.uid == details.uid else {
            return "the stored session is not the signed-in user's"
        }
        guard await backEnd.isCurrent(stored.credential, ofUser: details.uid) else {
            return "the stored credential is not the back-end's current one for the user"
        }
        let window = ReferenceSDKSchema.description.credential.refresh?.window ?? .zero
        clock.advance(by: TimeInterval(tokenLifetime) + window / .seconds(1))
        do {
            let me = try await service.me()
            guard me.uid == details.uid else { return "after a refresh, me() answered for another user" }
        } catch {
            return "after the credential expired, me() failed: \(SoakOutcome(error))"
        }
        guard let refreshed = try? store.load(), refreshed.credential != stored.credential,
            await backEnd.isCurrent(refreshed.credential, ofUser: details.uid)
        else { return "the refreshed credential is not the back-end's current one" }
        return nil
    }
}
