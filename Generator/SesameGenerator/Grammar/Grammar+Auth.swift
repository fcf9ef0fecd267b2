@_spi(Generated) import SesameDescription
/// auth.yaml: authentication methods, their steps, and operations.
extension Grammar {
    static let authFile = GrammarMapping(
        "auth.yaml", "auth.yaml: authentication methods and operations.",
        keys: [
            GrammarKey(
                "methods", .dictionary(names: .shared("identifier"), values: .mapping(method)),
                "The ways to sign in: each a Swift method of the authentication service."),
            GrammarKey(
                "operations", .dictionary(names: .shared("identifier"), values: .mapping(operation)),
                "The back-end's operations: each one request, a Swift method."),
        ],
        nullable: true)

    static let method = GrammarMapping(
        "method", "An authentication method: one step, or several with values from the app in between.",
        keys: [
            GrammarKey("description", .shared("text"), "Documentation of the method."),
            GrammarKey(
                "parameters", .dictionary(names: .shared("identifier"), values: .shared("parameterSchema")),
                "The method's arguments: names to schemas (`secret: true` hides a value)."),
            GrammarKey(
                "steps", .list(.mapping(step), minimumCount: 1), missing: " needs at least one step",
                "The method's requests, in order; the last one returns the token response."),
        ])

    static let step = GrammarMapping(
        "step", "One request of an authentication method.",
        keys: [
            GrammarKey(
                "name", .shared("identifier"),
                "The step's name (default authenticate for a single step, else step1, step2…); `{name.field}` reads its response."),
            GrammarKey(
                "description", .shared("text"), "Documentation of the step for readers of the schema (the generated code does not show it)."
            ),
            GrammarKey(
                "needs",
                .either([
                    .list(.shared("identifier")),
                    .dictionary(names: .shared("identifier"), values: .shared("parameterSchema")),
                ]),
                "Values the app supplies before this step: a list of names (strings), or a mapping of names to schemas."),
            GrammarKey(
                "browser", .mapping(browser),
                "Opens the authorization request (authorization code grant with PKCE) in a browser before the step's request, which then reads {code}, {codeVerifier} and {redirectURI}. The runtime sets "
                    + BrowserAuthorization.reservedParameters.sorted().joined(separator: ", ") + " itself."),
            GrammarKey(
                "device", .mapping(device),
                "Sends the device authorization request (RFC 8628) before the step's request, hands the app the user code, then polls the step's request, which reads {deviceCode}, until the user answers."
            ),
            GrammarKey("request", .shared("requestLine"), missing: " needs a request", "The step's request."),
            GrammarKey("server", .shared("server"), "The server of the step's request (default api)."),
            GrammarKey("encoding", .shared("encoding"), "How the body is encoded (default json)."),
            GrammarKey("clientAuthentication", .shared("clientAuthentication"), "How the client authenticates (default none)."),
            GrammarKey(
                "body", .dictionary(values: .shared("template")),
                "The body's fields: literals or templates (`{parameter}`, `{need}`, `{step.field}`)."),
            GrammarKey("response", .shared("modelName"), "The model of the response; the last step's is the token response."),
        ])

    static let browser = GrammarMapping(
        "browser", "The authorization request, opened in a browser.",
        keys: [
            GrammarKey(
                "request", .refined(.shared("requestLine"), [("pattern", .string("^ *[Gg][Ee][Tt] "))]),
                missing: " needs the authorization request (GET /oauth/authorize)", "The authorization endpoint: a GET request line."),
            GrammarKey("server", .shared("server"), "The server of the authorization endpoint (default authorization)."),
            GrammarKey(
                "pushed", .refined(.shared("requestLine"), [("pattern", .string("^ *[Pp][Oo][Ss][Tt] "))]),
                "The pushed authorization request endpoint (RFC 9126, the server's pushed_authorization_request_endpoint): a POST request line on the authorization server. The parameters are posted there with the step's client authentication, and the browser opens the authorization endpoint with client_id and request_uri only."
            ),
            GrammarKey(
                "redirectURI", .string(pattern: "^[A-Za-z][A-Za-z0-9+.-]*:[^?#]+$"), missing: " needs the app's redirectURI (RFC 8252 §7)",
                "The app's redirect URI (RFC 8252), such as com.example.app://oauth/callback."),
            GrammarKey(
                "parameters",
                .dictionary(
                    names: .refined(
                        .any, [("not", .object([("enum", .array(BrowserAuthorization.reservedParameters.sorted().map { .string($0) }))]))]),
                    values: .shared("template")),
                "More query parameters: literals or templates of the method's parameters."),
            GrammarKey(
                "openID", .boolean,
                "Whether this is an OpenID Connect sign-in: the request sends a nonce and the token response must carry an id_token validated as sdk.yaml's openID says (default false; needs it)."
            ),
        ])

    static let device = GrammarMapping(
        "device", "The device authorization request (RFC 8628 §3.1), form-encoded with the step's client authentication.",
        keys: [
            GrammarKey(
                "request", .refined(.shared("requestLine"), [("pattern", .string("^ *[Pp][Oo][Ss][Tt] "))]),
                missing: " needs the device authorization request (POST /oauth/device_authorization)",
                "The device authorization endpoint: a POST request line."),
            GrammarKey("server", .shared("server"), "The server of the device authorization endpoint (default authorization)."),
            GrammarKey(
                "parameters",
                .dictionary(
                    names: .refined(
                        .any, [("not", .object([("enum", .array(DeviceAuthorization.reservedParameters.sorted().map { .string($0) }))]))]),
                    values: .shared("template")),
                "More form parameters (scope): literals or templates of the method's parameters."),
            GrammarKey(
                "openID", .boolean,
                "Whether this is an OpenID Connect sign-in (its scope asks for openid): the token response must carry an id_token, validated as sdk.yaml's openID says, without a nonce, which RFC 8628 cannot send (default false; needs it)."
            ),
        ])

    static let operation = GrammarMapping(
        "operation", "An operation: one request, a Swift method.",
        keys: [
            GrammarKey("description", .shared("text"), "Documentation of the generated method."),
            GrammarKey("request", .shared("requestLine"), missing: " needs a request", "The operation's request."),
            GrammarKey("server", .shared("server"), "The server of the operation (default api)."),
            GrammarKey(
                "parameters", .dictionary(names: .shared("identifier"), values: .mapping(operationParameter)),
                "Path and query parameters: names to their declarations."),
            GrammarKey("body", .shared("schemaOrName"), "The request body: a model name or an inline schema."),
            GrammarKey("encoding", .shared("encoding"), "How the body is encoded (default json)."),
            GrammarKey("response", .shared("schemaOrName"), "The response: a model name or an inline schema."),
            GrammarKey(
                "authenticated", .boolean, "Whether the credential is sent (default true on the API, false on the authorization server)."),
            GrammarKey("freshAuthentication", .shared("duration"), "Refuse to send unless the user signed in at most this long ago."),
            GrammarKey("deprecated", .boolean, "Marks the generated method deprecated in its documentation."),
        ])

    static let operationParameter = GrammarMapping(
        "parameter", "A path or query parameter.",
        keys: [
            GrammarKey("in", .oneOf(["path", "query"]), "path or query (default query)."),
            GrammarKey("schema", .shared("schemaOrName"), missing: " needs a schema", "A string, number, boolean or enum schema."),
            GrammarKey("required", .boolean, "Default: true for path parameters, false for query parameters."),
            GrammarKey("description", .shared("text"), "Documentation of the parameter."),
        ])
}
