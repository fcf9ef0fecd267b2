import ArgumentParser
import BenchmarkTargets
import Foundation
import HTTPTypes
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription
import SesameDPoP
import SesameTestSupport

/// `sesame-bench dpop`: what DPoP (RFC 9449) costs a request: one proof (sign and encode),
/// and the service's whole request path with DPoP against the same path with bearer tokens,
/// alternated round after round in one run.
struct DPoPBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dpop",
        abstract: "Times a DPoP proof and the request path with DPoP against without, and prints one JSON line.",
        discussion: """
            Prints {"proof_microseconds": …, "bearer_perform_microseconds": …, "dpop_perform_microseconds": …,
            "path_beyond_proof_microseconds": …}: the time of one proof (DPoPProofSigner.proof: the ES256
            signature with jwt-kit and the compact JWS), of the service's perform(_:) with bearer tokens and
            with DPoP-bound ones over the same in-memory transport, and what the DPoP path costs beyond its
            proof. Each figure is the best of the rounds. Targets: a proof at most 100 µs; the DPoP path at
            most the bearer path plus the proof plus 5 µs. Exits 1 when one is missed.
            Example: swift run -c release sesame-bench dpop
            """
    )

    @Option(help: "Requests (and proofs) per round.")
    var requests = 5_000

    @Option(help: "Rounds; the best (minimum) of each figure is kept.")
    var rounds = 7

    func validate() throws {
        guard requests >= 1, rounds >= 1 else { throw ValidationError("--requests and --rounds must be at least 1") }
    }

    func run() async throws {
        let result = try await Self.measure(requests: requests, rounds: rounds)
        print(result.jsonLine)
        if !result.checks.allSatisfy(\.met) { throw ExitCode.failure }
    }

    struct Result: Sendable {
        var proof: Double
        var bearer: Double
        var dpop: Double

        /// What the DPoP path costs beyond the bearer path and its proof, in microseconds.
        var beyondProof: Double { dpop - bearer - proof }
        var checks: [TargetCheck] {
            [Targets.dpopProof(microseconds: proof), Targets.dpopPath(beyondProofMicroseconds: beyondProof)]
        }

        var jsonLine: String {
            func format(_ value: Double) -> String { String(format: "%.3f", value) }
            return "{\"proof_microseconds\": \(format(proof)), \"bearer_perform_microseconds\": \(format(bearer)), "
                + "\"dpop_perform_microseconds\": \(format(dpop)), \"path_beyond_proof_microseconds\": \(format(beyondProof))}"
        }
    }

    /// Alternates the three loops, round after round, so that each sees the same machine.
    static func measure(requests: Int, rounds: Int) async throws -> Result {
        let clock = ManualClock.followingRealTime()
        // The bare transport: `GET /notes` answers at once, whatever the request carries.
        let transport = BenchBackEnd(clock: clock, checksNotes: false)
        let bearer = RuntimeBench.service(transport: transport, clock: clock)
        _ = try await bearer.authenticate(with: GuestSignIn())
        let dpop = AuthenticationService<BenchDPoPSchema>(
            configuration: .init(
                transport: transport, now: { clock.now },
                logger: RuntimeBench.silentLogger, receivesServerEvents: false, proofOfPossession: DPoP()))
        _ = try await dpop.authenticate(with: BenchDPoPGuestSignIn())
        let signer = DPoPProofSigner(key: DPoPKey())
        let url = RuntimeBench.baseURL.appendingPathComponent("notes")
        let notes = OperationRequest(RuntimeBench.notes)
        var best = Result(proof: .infinity, bearer: .infinity, dpop: .infinity)
        for round in 0...rounds {
            let proof = try await RuntimeBench.perRequest(requests) {
                _ = try await signer.proof(method: .get, url: url, accessToken: "at-1", nonce: "n-1")
            }
            let bearerPath = try await RuntimeBench.perRequest(requests) { _ = try await bearer.perform(notes) }
            let dpopPath = try await RuntimeBench.perRequest(requests) { _ = try await dpop.perform(notes) }
            guard round > 0 else { continue }  // round 0 warms up
            best.proof = min(best.proof, proof)
            best.bearer = min(best.bearer, bearerPath)
            best.dpop = min(best.dpop, dpopPath)
        }
        return best
    }
}

/// The benchmark back-end's schema with DPoP-bound tokens (`credential.dpop`).
enum BenchDPoPSchema: SDKSchema {
    typealias Details = BenchDetails
    typealias ServerError = BenchServerError
    typealias Event = BenchEvent
    static let description: SDKDescription = {
        var description = RuntimeBench.description
        description.credential.binding = .dpop(DPoPBinding(algorithms: ["ES256"]))
        return description
    }()
    static func userID(of details: BenchDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> BenchServerError { BenchServerError(response: response) }
}

struct BenchDPoPGuestSignIn: SingleStepAuthenticationMethod {
    var methodDescription: AuthenticationMethodDescription { RuntimeBench.guest }
    var arguments: [String: JSONValue] { [:] }
    var description: String { "guest" }
}
