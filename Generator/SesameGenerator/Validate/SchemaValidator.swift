@_spi(Generated) import SesameDescription

/// The validation pass: checks that span files, run once every file is translated. Each
/// check returns diagnostics at the node that caused the problem; none changes the IR.
enum SchemaValidator {
    /// The last step of every method must return the credential's token model.
    static func checkTokenResponses(_ methods: [MethodIR], credential: CredentialIR) -> [Diagnostic] {
        guard let tokenModel = credential.tokenModel else { return [] }
        var diagnostics: [Diagnostic] = []
        for method in methods {
            guard let last = method.steps.last, let response = last.response else { continue }
            if response != tokenModel {
                diagnostics.append(
                    .error(
                        "the last step of '\(method.name)' must return the token model '\(tokenModel.schemaName)', not '\(response.schemaName)'",
                        at: last.location))
            }
        }
        return diagnostics
    }

    /// A browser step with `openID: true` needs sdk.yaml's `openID:` (the keys its ID token is
    /// verified with); run when sdk.yaml has none.
    static func checkOpenIDSteps(_ methods: [MethodIR]) -> [Diagnostic] {
        methods.flatMap { method in
            method.steps.compactMap { step in
                step.openIDLocation.map {
                    .error(
                        "step '\(step.name)' of '\(method.name)' is an OpenID Connect sign-in, but sdk.yaml declares no openID: add openID: { keys: /oauth/jwks } beside authorizationServer",
                        at: $0)
                }
            }
        }
    }

    /// With `details: idToken`, the details come from the ID token only an OpenID Connect
    /// sign-in returns: the last step of every method must be a browser or device step with
    /// `openID: true`.
    static func checkClaimsDetails(_ methods: [MethodIR], credential: CredentialIR) -> [Diagnostic] {
        guard credential.detailsClaims != nil else { return [] }
        return methods.compactMap { method in
            guard let last = method.steps.last, last.openIDLocation == nil else { return nil }
            return .error(
                "'\(method.name)' is no OpenID Connect sign-in, but sdk.yaml's credential reads the user's details from the ID token (details: idToken): end it with a browser or device step with openID: true, or name a details operation",
                at: last.location)
        }
    }

    /// With an authorization server of its own, client credentials go to it only: a step,
    /// refresh or revocation request that declares client authentication must be sent
    /// there (`server: authorization`, their default when they declare it): only an
    /// explicit `server: api` can send it elsewhere.
    static func checkClientAuthentication(_ methods: [MethodIR], credential: CredentialIR, lifecycle: LifecycleIR) -> [Diagnostic] {
        var requests: [(what: String, server: ServerRole, authentication: ClientAuthentication, at: SourceLocation)] = []
        for method in methods {
            for step in method.steps {
                requests.append(
                    (
                        "step '\(step.name)' of '\(method.name)'", step.value.request.server, step.value.request.clientAuthentication,
                        step.requestLocation
                    ))
            }
        }
        if let refresh = credential.value.refresh, let location = credential.refreshRequestLocation {
            requests.append(("the refresh request", refresh.request.server, refresh.request.clientAuthentication, location))
        }
        if let revocation = lifecycle.value.revocation, let location = lifecycle.revocationRequestLocation {
            requests.append(("the revocation request", revocation.request.server, revocation.request.clientAuthentication, location))
        }
        return requests.compactMap { request in
            guard request.authentication != .none, request.server == .api else { return nil }
            return .error(
                "\(request.what) declares client authentication, which goes only to the authorization server: remove server: api",
                at: request.at)
        }
    }

    /// The store versions against the released snapshots: a recorded version that changed,
    /// or that is no longer declared, is an error (`StoreSnapshots.check`).
    static func checkReleasedStore(_ store: StoreIR?, recorded: [String: String]) -> [Diagnostic] {
        StoreSnapshots.check(store, recorded: recorded)
    }
}
