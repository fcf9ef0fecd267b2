#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import Testing
@testable import Sesame
import SesameCombine

extension CombineAuthenticationServiceTests {
    @Test func theFutureWithAuthorizationParametersFailsAsTheCallThrows() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        let failures = Received<any Error>()
        let cancellable = service.forCombine.authenticate(
            with: StubMethod.guest, authorization: AuthorizationParameters(acrValues: ["urn:mfa"])
        ).sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { failures.append(error) }
            },
            receiveValue: { _ in })
        #expect(await eventually { failures.all.count == 1 })
        // The stub's guest method has no browser step: the parameters reached the service.
        guard case SesameError.authenticationProcess(let reason)? = failures.all.first else {
            Issue.record("expected authenticationProcess, got \(failures.all)")
            return
        }
        #expect(reason.contains("no browser step"))
        #expect(await service.state == .unauthenticated)
        cancellable.cancel()
    }
}
