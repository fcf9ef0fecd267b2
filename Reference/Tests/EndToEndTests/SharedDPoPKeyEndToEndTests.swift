import BoundTokensSDK
import Foundation
import Sesame
import SesameDPoP
import SesameStore
import SesameTestSupport
import Testing

/// A DPoP-bound session shared across processes, with real processes: the test is the app and
/// `bound-session-child` processes its extensions, over one directory (the shared session
/// store and a `FileDPoPKeyStore`) and the reference server with DPoP on. Every process must
/// sign with the key the session's tokens are bound to: the server refuses any other.
@Suite("A DPoP key shared across processes, end to end", .serialized, .secretScan)
struct SharedDPoPKeyEndToEndTests {
    static let child = builtProduct(named: "bound-session-child")

    /// The app's service over `folder`'s shared session and key.
    static func app(_ e2e: EndToEnd, in folder: TemporaryDirectory) throws -> (AuthenticationService<BoundTokensSDKSchema>, DPoP) {
        let contexts = try AppContexts(root: folder.url)
        let dpop = DPoP(keyStore: FileDPoPKeyStore(url: folder.url.appendingPathComponent("dpop-key.pem")))
        let logs = LogCapture()
        e2e.scan.watch(logs)
        let service = AuthenticationService<BoundTokensSDKSchema>(
            configuration: .init(
                baseURL: e2e.backEnd.baseURL,
                client: ClientCredentials(clientID: BackEnd.clientID, clientSecret: BackEnd.clientSecret),
                logger: logs.logger(label: "e2e.shared-dpop"),
                sessionStore: contexts.standard.sharedSessionStore(userID: BoundTokensSDKSchema.userID(of:)),
                receivesServerEvents: false,
                authorizationServerURL: e2e.backEnd.authorizationBaseURL,
                proofOfPossession: dpop))
        return (service, dpop)
    }

    static func arguments(_ e2e: EndToEnd, _ folder: TemporaryDirectory, _ mode: String) -> [String] {
        [
            e2e.backEnd.baseURL.absoluteString + "," + e2e.backEnd.authorizationBaseURL.absoluteString, folder.url.path,
            BackEnd.clientID, BackEnd.clientSecret, mode,
        ]
    }

    static func signIn(_ service: AuthenticationService<BoundTokensSDKSchema>) async throws {
        _ = try await service.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
    }

    @Test("processes that start together with no key agree on one, and the app signs in with it")
    func processesStartingTogetherCreateOneKey() async throws {
        let child = try #require(Self.child, "build the bound-session-child product first (swift build)")
        try await withEndToEnd(dpop: DPoPEndToEndTests.options) { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-shared-dpop")
            let arguments = Self.arguments(e2e, folder, "key")
            let runs = try await withThrowingTaskGroup(of: ProcessRun.self) { group in
                for _ in 0..<6 { group.addTask { try await runToEnd(child, arguments: arguments) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for run in runs { #expect(run.status == 0, "\(run.output)") }
            let printed = Set(runs.map { $0.output.trimmingCharacters(in: .whitespacesAndNewlines) })
            #expect(printed.count == 1, "\(printed)")
            let (service, dpop) = try Self.app(e2e, in: folder)
            try await Self.signIn(service)
            #expect(printed == ["key \(try await dpop.thumbprint())"])
            _ = try await service.me()
        }
    }

    @Test("a sign-out and sign-in in the app: another process follows and signs with the new key")
    func anotherProcessFollowsASignInWithItsKey() async throws {
        let child = try #require(Self.child, "build the bound-session-child product first (swift build)")
        try await withEndToEnd(dpop: DPoPEndToEndTests.options) { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-shared-dpop")
            let (service, dpop) = try Self.app(e2e, in: folder)
            try await Self.signIn(service)
            let first = try await dpop.thumbprint()
            let extensionProcess = try ChildProcess(child, arguments: Self.arguments(e2e, folder, "follow"))
            #expect(try await extensionProcess.line() == "ready \(first)")

            _ = await service.unauthenticate()
            #expect(try await extensionProcess.line() == "signed out")
            try await Self.signIn(service)
            let second = try await dpop.thumbprint()
            #expect(second != first)
            // The extension's tokens are now bound to the app's new key: it signs with it.
            let after = try await extensionProcess.line()
            let inFile = try FileDPoPKeyStore(url: folder.url.appendingPathComponent("dpop-key.pem")).load()?.thumbprint
            let appNow = try await dpop.thumbprint()
            #expect(after == "after ok \(second)", "\(after); file \(inFile ?? "-"); first \(first); app now \(appNow)")
            #expect(await extensionProcess.exitStatus() == 0)
            _ = try await service.me()
        }
    }
}
