/// One step of an authentication method: a request whose body is built from the method's
/// arguments, the values the app supplies before this step, and earlier steps' responses.
public struct AuthenticationStepDescription: Sendable, Hashable {
    /// The step's name, used in `{step.field}` placeholders and by `continueAuthentication`.
    public var name: String
    public var request: RequestDescription
    public var body: [TemplateField]
    /// The values the app must supply before this step runs.
    public var needs: [String]
    /// The authorization request opened in a browser before `request`, for a step that
    /// signs in with the authorization code grant and PKCE; nil for a plain request.
    public var browser: BrowserStepDescription?

    public init(
        name: String, request: RequestDescription, body: [TemplateField], needs: [String] = [],
        browser: BrowserStepDescription? = nil
    ) {
        self.name = name
        self.request = request
        self.body = body
        self.needs = needs
        self.browser = browser
    }
}

/// The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636) a browser step opens.
///
/// The runtime adds `response_type=code`, `client_id`, `redirect_uri`, a fresh `state` and
/// the S256 `code_challenge` of a fresh verifier to ``parameters``; the step's token
/// request then reads `{code}`, `{codeVerifier}` and `{redirectURI}`.
public struct BrowserStepDescription: Sendable, Hashable {
    /// The authorization endpoint (a GET request line), usually on the authorization server.
    public var request: RequestDescription
    /// Where the authorization server sends the browser back: the app's own URL.
    public var redirectURI: String
    /// More query parameters, templates of the method's parameters (`scope`, `prompt`, …).
    public var parameters: [TemplateField]

    public init(request: RequestDescription, redirectURI: String, parameters: [TemplateField] = []) {
        self.request = request
        self.redirectURI = redirectURI
        self.parameters = parameters
    }

    /// The query parameters the runtime sets itself; a schema cannot declare them.
    public static let reservedParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method",
    ]
    /// The placeholders the step's token request may read once the browser came back.
    public static let providedValues: Set<String> = ["code", "codeVerifier", "redirectURI"]
}

/// An authentication method: one step (single-step) or several, the last of which returns
/// the token response.
public struct AuthenticationMethodDescription: Sendable, Hashable {
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
    func fieldPaths(readFrom name: String) -> [[String]] {
        var paths: [[String]] = []
        for step in steps.drop(while: { $0.name != name }).dropFirst() {
            for field in step.body {
                let variables: [[String]] =
                    switch field.value {
                    case .literal: []
                    case .variable(let path): [path]
                    case .interpolation(let parts): parts.compactMap { if case .variable(let path) = $0 { path } else { nil } }
                    }
                for path in variables where path.count > 1 && path[0] == name && !paths.contains(Array(path.dropFirst())) {
                    paths.append(Array(path.dropFirst()))
                }
            }
        }
        return paths
    }
}

/// An authentication method with the arguments the app chose. Generated SDKs declare one
/// enum of single-step methods and one of multi-step methods, whose descriptions never
/// show a secret argument.
public protocol AuthenticationMethod: Sendable, CustomStringConvertible {
    /// The method as the schema declares it.
    var methodDescription: AuthenticationMethodDescription { get }
    /// The method's parameters by name, as JSON values.
    var arguments: [String: JSONValue] { get }
    /// Checks the arguments against their schemas before anything is sent.
    /// - Throws: ``SchemaViolation`` naming the argument that breaks its schema.
    func validate() throws
}

extension AuthenticationMethod {
    /// Methods with nothing to check accept any arguments.
    public func validate() throws {}
}

/// A method that runs to the end without input from the app between steps.
public protocol SingleStepAuthenticationMethod: AuthenticationMethod {}

/// A method that stops between steps for values the app supplies
/// (`continueAuthentication(with:)`).
public protocol MultiStepAuthenticationMethod: AuthenticationMethod {}

/// The values the app supplies to run the next step of a multi-step method.
public protocol AuthenticationContinuation: Sendable, CustomStringConvertible {
    /// The method this continuation belongs to.
    var methodName: String { get }
    /// The step it runs.
    var stepName: String { get }
    /// The step's `needs`, by name.
    var values: [String: JSONValue] { get }
    /// Checks the values against their schemas before anything is sent.
    /// - Throws: ``SchemaViolation`` naming the value that breaks its schema.
    func validate() throws
}

extension AuthenticationContinuation {
    /// Continuations with nothing to check accept any values.
    public func validate() throws {}
}
