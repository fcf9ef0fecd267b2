import Foundation
import ReferenceSDK
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

extension Demo {
    /// `GET /account/security`, the reference server's step-up protected operation. Schema/
    /// does not declare it (it is the server's RFC 9470 test resource, not part of the API an
    /// app is generated for), so the demo builds the request as a generated operation method
    /// would and hands it to the service, as the end-to-end tests do.
    static let accountSecurity = OperationRequest(
        RequestDescription(name: "accountSecurity", method: .get, path: "/account/security", authenticated: true))

    /// Step 16: step-up (RFC 9470). The operation needs a sign-in with a second factor within
    /// the last 300 seconds; the session of step 15 has a password only, so the service throws
    /// ``SesameError/stepUpRequired(operation:challenge:)`` and keeps the session. The app
    /// signs in again asking what the challenge names, the new ID token's `acr` says it was
    /// reached, and the retried call succeeds. Then it signs out.
    func stepUp(with service: AuthenticationService<ReferenceSDKSchema>) async throws {
        Console.step(16, "Step-up (RFC 9470): an operation asks for a stronger sign-in, the app signs in again and retries")
        let read = try await service.idTokenClaims()
        let before = try require(read, "idTokenClaims() is nil before the step-up")
        Console.info("GET /account/security needs a recent sign-in with a second factor; this one reached acr \(before.acr ?? "(none)")")
        let refreshes = await backEnd.refreshCount()
        let challenge: StepUpChallenge
        do {
            let answer = try await service.perform(Self.accountSecurity)
            throw DemoFailure("GET /account/security answered \(answer.status) to a password-only sign-in")
        } catch SesameError.stepUpRequired(let operation, let asked) {
            try check(operation == "accountSecurity", "the step-up challenge named \(operation)")
            challenge = asked
        }
        try check(!challenge.acrValues.isEmpty && challenge.maxAge != nil, "the challenge names no acr_values or max_age: \(challenge)")
        try check(await backEnd.refreshCount() == refreshes, "the service refreshed for a step-up challenge")
        try check(await service.state.isAuthenticated, "the step-up challenge ended the session")
        Console.ok(
            "SesameError.stepUpRequired: acr_values \(challenge.acrValues.joined(separator: " ")), max_age \(challenge.maxAge ?? 0); "
                + "the session kept, nothing refreshed")

        let stepped = try await service.authenticate(
            with: SingleStepMethod.openid(), authorization: AuthorizationParameters(stepUp: challenge))
        try check(stepped.uid == before.sub, "the step-up signed in \(stepped.uid), not \(before.sub)")
        let after = try await service.idTokenClaims()
        let claims = try require(after, "idTokenClaims() is nil after the step-up")
        let acr = try require(claims.acr, "the step-up's ID token carries no acr")
        try check(challenge.acrValues.contains(acr), "the step-up's ID token's acr \(acr) is not one of \(challenge.acrValues)")
        Console.ok("signed in again in the browser with AuthorizationParameters(stepUp:): the new ID token's acr is \(acr)")
        let answer = try await service.perform(Self.accountSecurity)
        try check(answer.status == 200, "the retried GET /account/security answered \(answer.status)")
        Console.ok("the retried GET /account/security answered \(answer.status)")

        let signOut = await service.unauthenticate()
        try check(signOut == .endedAtProvider(notRevoked: nil), "sign-out did not end the provider's session: \(signOut)")
        Console.ok("signed out, at the provider too")
    }
}
