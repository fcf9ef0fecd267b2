/// An authentication method: one step (single-step) or several, the last of which returns
/// the token response.
@_spi(Generated) public struct AuthenticationMethodDescription: Sendable, Hashable {
    public var name: String
    public var steps: [AuthenticationStepDescription]

    public init(name: String, steps: [AuthenticationStepDescription]) {
        self.name = name
        self.steps = steps
    }

    /// Whether the app must supply values between steps.
    public var isMultiStep: Bool { steps.count > 1 }

    /// The fields of step `name`'s response that the body templates of the steps after it
    /// read (`{initialize.challengeId}` gives `["challengeId"]`), in order, without repeats.
    public func fieldPaths(readFrom name: String) -> [[String]] {
        var paths: [[String]] = []
        for step in steps.drop(while: { $0.name != name }).dropFirst() {
            for field in step.body {
                for case .stepOutput(let stepName, let path) in field.value.placeholders where stepName == name && !paths.contains(path) {
                    paths.append(path)
                }
            }
        }
        return paths
    }
}

/// One step of an authentication method: a request whose body is built from the method's
/// arguments, the values the app supplies before this step, and earlier steps' responses,
/// and what comes before that request (its ``Kind``).
@_spi(Generated) public struct AuthenticationStepDescription: Sendable, Hashable {
    /// What a step does before its request: each kind is a case, its translation in the
    /// generator and its interpretation in the runtime.
    public enum Kind: Sendable, Hashable {
        /// Nothing: the step is its request.
        case request
        /// The authorization request of the authorization code grant with PKCE, opened in a
        /// browser; the step's request is then the token request.
        case browser(BrowserAuthorization)
        /// The device authorization request (RFC 8628 §3.1), whose user code the app shows;
        /// the step's request is then the token request, polled until the user answers.
        case deviceAuthorization(DeviceAuthorization)
    }

    /// The step's name, used in `{step.field}` placeholders and by `continueAuthentication`.
    public var name: String
    /// The values the app must supply before this step runs.
    public var needs: [String]
    public var kind: Kind
    public var request: RequestDescription
    public var body: [TemplateField]

    public init(name: String, needs: [String], kind: Kind, request: RequestDescription, body: [TemplateField]) {
        self.name = name
        self.needs = needs
        self.kind = kind
        self.request = request
        self.body = body
    }

    /// A step written by hand (tests, SDKs without the generator): a browser step when
    /// `browser` is given, else a plain request.
    public init(
        name: String, request: RequestDescription, body: [TemplateField], needs: [String] = [],
        browser: BrowserAuthorization? = nil
    ) {
        self.init(name: name, needs: needs, kind: browser.map(Kind.browser) ?? .request, request: request, body: body)
    }

    /// The browser authorization of a browser step; nil for any other kind.
    public var browser: BrowserAuthorization? {
        if case .browser(let authorization) = kind { return authorization }
        return nil
    }

    /// The device authorization of a device step; nil for any other kind.
    public var deviceAuthorization: DeviceAuthorization? {
        if case .deviceAuthorization(let authorization) = kind { return authorization }
        return nil
    }
}

/// The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636) a browser step opens.
///
/// The runtime adds `response_type=code`, `client_id`, `redirect_uri`, a fresh `state` and
/// the S256 `code_challenge` of a fresh verifier to ``parameters``; the step's token
/// request then reads ``providedValues``.
@_spi(Generated) public struct BrowserAuthorization: Sendable, Hashable {
    /// The authorization endpoint (a GET request line), usually on the authorization server.
    public var request: RequestDescription
    /// Where the authorization server sends the browser back: the app's own URL.
    public var redirectURI: String
    /// More query parameters, templates of the method's parameters (`scope`, `prompt`, …).
    public var parameters: [TemplateField]
    /// Whether the step is an OpenID Connect sign-in (the schema's `openID: true`): the
    /// request sends a fresh `nonce` and the token response must carry an `id_token` that the
    /// schema's ``OpenIDDescription`` (or the app's validator) accepts.
    public var openID: Bool
    /// The pushed authorization request endpoint (RFC 9126), a POST on the authorization
    /// server with the step's client authentication: the request's parameters go there, and
    /// the browser opens the authorization endpoint with `client_id` and the `request_uri` it
    /// returns only. nil sends the parameters in the browser's URL.
    public var pushed: RequestDescription?

    public init(
        request: RequestDescription, redirectURI: String, parameters: [TemplateField] = [], openID: Bool = false,
        pushed: RequestDescription? = nil
    ) {
        self.request = request
        self.redirectURI = redirectURI
        self.parameters = parameters
        self.openID = openID
        self.pushed = pushed
    }

    /// The query parameters the runtime sets itself; a schema cannot declare them.
    public static let reservedParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method",
    ]
    /// What the step's token request may read once the browser came back; it must read all of them.
    public static let providedValues: [Placeholder] = [.authorizationCode, .codeVerifier, .redirectURI]
}
