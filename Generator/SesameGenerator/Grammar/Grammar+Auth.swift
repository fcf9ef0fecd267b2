@_spi(Generated) import SesameDescription
/// auth.yaml: authentication methods, their steps, and operations.
extension Grammar {
    static let authFile = GrammarMapping(
        "auth.yaml", "auth.yaml: authentication methods and operations.",
        keys: [
            GrammarKey(
                "methods", .dictionary(names: .shared("identifier"), values: .mapping(method)),
                "The ways to sign in: each a Swift method of the authentication service ([Authentication methods](#authentication-methods))."
            ),
            GrammarKey(
                "operations", .dictionary(names: .shared("identifier"), values: .mapping(operation)),
                "The back-end's operations: each one request, a Swift method ([Operations](#operations))."),
        ],
        nullable: true)

    static let method = GrammarMapping(
        "method", "An authentication method: one step, or several with values from the app in between.",
        keys: [
            GrammarKey("description", .shared("text"), "Documentation of the method."),
            GrammarKey(
                "parameters", .dictionary(names: .shared("identifier"), values: .shared("parameterSchema")),
                "The method's arguments: names (identifiers) to schemas (`secret: true` hides a value)."),
            GrammarKey(
                "steps", .list(.mapping(step), minimumCount: 1), missing: " needs at least one step",
                "The method's requests, one step or more, in order; the last one returns the token response."),
        ])

    static let step = GrammarMapping(
        "step", "One request of an authentication method.",
        keys: [
            GrammarKey(
                "name", .shared("identifier"), default: "`authenticate` for a method of one step, else `step1`, `step2`, …",
                "The step's name; `{name.field}` reads its response. Two steps of a method cannot share a name."),
            GrammarKey(
                "description", .shared("text"), "Documentation of the step, for readers of the schema: the generated code does not show it."
            ),
            GrammarKey(
                "needs",
                .either([
                    .list(.shared("identifier")),
                    .dictionary(names: .shared("identifier"), values: .shared("parameterSchema")),
                ]),
                "Values the app supplies before this step runs: a list of names (strings), or a mapping of names to schemas; not allowed on the first step."
            ),
            GrammarKey(
                "browser", .mapping(browser), conflicts: ["device"],
                "Opens the authorization request (authorization code grant with PKCE) in a browser before the step's request, which then reads {code}, {codeVerifier} and {redirectURI}. The runtime sets "
                    + BrowserAuthorization.reservedParameters.sorted().joined(separator: ", ")
                    + " itself ([browser](#browser-a-step-signed-in-in-a-browser))."),
            GrammarKey(
                "device", .mapping(device), conflicts: ["browser"],
                "Sends the device authorization request (RFC 8628) before the step's request, hands the app the user code, then polls the step's request, which reads {deviceCode}, until the user answers ([device](#device-a-step-signed-in-on-another-device-rfc-8628))."
            ),
            GrammarKey("request", .shared("requestLine"), missing: " needs a request", "The step's request line."),
            GrammarKey(
                "server", .shared("server"),
                default: "`api`; `authorization` with `clientAuthentication: basic` or `post` or a `device` part",
                "The server of the step's request ([server](#server-which-server-a-request-goes-to))."),
            GrammarKey("encoding", .shared("encoding"), default: "`json`", "How the body is encoded: `json` or `form`."),
            GrammarKey(
                "clientAuthentication", .shared("clientAuthentication"), default: "`none`",
                "How the client authenticates: `none`, `basic` or `post`, as for the refresh request ([what each mode sends](#clientauthentication-what-each-mode-sends))."
            ),
            GrammarKey(
                "body", .dictionary(values: .shared("template")),
                "The body's fields, a template mapping: literals or templates (`{parameter}`, `{need}`, `{step.field}`)."),
            GrammarKey(
                "response", .shared("modelName"), requiredWhen: "on the last step",
                "The name of a model: the step's JSON response. `{step.field}` placeholders are checked against its own `properties`; the last step's is the token response (name `credential.token.model` there: the generator does not compare them)."
            ),
        ])

    static let browser = GrammarMapping(
        "browser", "The authorization request, opened in a browser.",
        keys: [
            GrammarKey(
                "request", .refined(.shared("requestLine"), [("pattern", .string("^ *[Gg][Ee][Tt] "))]),
                missing: " needs the authorization request (GET /oauth/authorize)",
                "The authorization endpoint, a `GET` request line without path parameters."),
            GrammarKey("server", .shared("server"), default: "`authorization`", "The server of the authorization endpoint."),
            GrammarKey(
                "pushed", .refined(.shared("requestLine"), [("pattern", .string("^ *[Pp][Oo][Ss][Tt] "))]),
                "The pushed authorization request endpoint (RFC 9126; the server's `pushed_authorization_request_endpoint`, which `sesame discover` names), a `POST` request line on the authorization server. The request's parameters are posted there as a form, with the step's `clientAuthentication` (and a DPoP proof with `credential.dpop`), so they never appear in the browser's URL and the server can refuse a tampered request before the user sees a page; the browser then opens `request` with `client_id` and the returned `request_uri` only. An error response is the schema's typed error; an answer without a `request_uri` or a positive `expires_in` is `SesameError.decoding`. Nothing opens in either case."
            ),
            GrammarKey(
                "redirectURI", .string(pattern: "^[A-Za-z][A-Za-z0-9+.-]*:[^?#]+$"), missing: " needs the app's redirectURI (RFC 8252 §7)",
                "The app's redirect URI, an absolute URL without query or fragment (a private-use scheme as RFC 8252 §7.1 says, such as `com.example.app://oauth/callback`, a claimed `https` URL, or a loopback `http://127.0.0.1/path` or `http://[::1]/path` as §7.3 says, whose port, when it has none, is the one the app's `LoopbackBrowser` listens on); the app's configuration may replace it at run time (`redirectURI`, see [docs/runtime.md](runtime.md#redirect-uris-set-at-run-time))."
            ),
            GrammarKey(
                "parameters",
                .dictionary(
                    names: .refined(
                        .any, [("not", .object([("enum", .array(BrowserAuthorization.reservedParameters.sorted().map { .string($0) }))]))]),
                    values: .shared("template")),
                "More query parameters: literals or templates of the method's parameters and earlier needs (`scope`, `prompt`, `audience`, …); not those the runtime sets."
            ),
            GrammarKey(
                "openID", .boolean, default: "`false`",
                "Whether this is an OpenID Connect sign-in: the request sends a nonce and the token response must carry an `id_token` validated as sdk.yaml's `openID` says, which it needs ([openID](#openid-openid-connect-sign-in))."
            ),
        ])

    static let device = GrammarMapping(
        "device", "The device authorization request (RFC 8628 §3.1), form-encoded with the step's client authentication.",
        keys: [
            GrammarKey(
                "request", .refined(.shared("requestLine"), [("pattern", .string("^ *[Pp][Oo][Ss][Tt] "))]),
                missing: " needs the device authorization request (POST /oauth/device_authorization)",
                "The device authorization endpoint, a `POST` request line without path parameters; sent form-encoded with the step's `clientAuthentication`."
            ),
            GrammarKey("server", .shared("server"), default: "`authorization`", "The server of the device authorization endpoint."),
            GrammarKey(
                "parameters",
                .dictionary(
                    names: .refined(
                        .any, [("not", .object([("enum", .array(DeviceAuthorization.reservedParameters.sorted().map { .string($0) }))]))]),
                    values: .shared("template")),
                "More form parameters: literals or templates of the method's parameters and earlier needs (`scope`, …); not `client_id` or `client_secret`, which the runtime sets."
            ),
            GrammarKey(
                "openID", .boolean, default: "`false`",
                "Whether this is an OpenID Connect sign-in, its `scope` asking for `openid`: the token response must carry an `id_token`, validated as sdk.yaml's `openID` says but without a nonce, which RFC 8628's device authorization request cannot send; it needs [openID](#openid-openid-connect-sign-in)."
            ),
        ])

    static let operation = GrammarMapping(
        "operation", "An operation: one request, a Swift method.",
        keys: [
            GrammarKey("description", .shared("text"), default: "`` `METHOD path` ``", "Documentation of the generated Swift method."),
            GrammarKey(
                "request", .shared("requestLine"), missing: " needs a request",
                "The operation's request line; `{name}` in the path is a path parameter."),
            GrammarKey("server", .shared("server"), default: "`api`", "The server of the operation."),
            GrammarKey(
                "parameters", .dictionary(names: .shared("identifier"), values: .mapping(operationParameter)),
                "Path and query parameters: names to their declarations (below)."),
            GrammarKey(
                "body", .shared("schemaOrName"),
                "The request body: a model's name or an inline schema; not allowed on GET and HEAD."),
            GrammarKey("encoding", .shared("encoding"), default: "`json`", "How the body is sent: `json` or `form`."),
            GrammarKey(
                "response", .shared("schemaOrName"),
                "The response body: a model's name or an inline schema; without it the response body is ignored."),
            GrammarKey(
                "authenticated", .boolean, default: "`true` on the API, `false` on the authorization server",
                "Whether the credential is sent (`false` for public endpoints)."),
            GrammarKey(
                "freshAuthentication", .shared("duration"),
                "A duration: the SDK refuses to send the request (throws `reauthenticationRequired`) when the user signed in longer ago than this; sign in again first."
            ),
            GrammarKey(
                "deprecated", .boolean, default: "`false`", "Adds a deprecation note to the Swift method's documentation."),
        ])

    static let operationParameter = GrammarMapping(
        "parameter", "A path or query parameter.",
        keys: [
            GrammarKey("in", .oneOf(["path", "query"]), default: "`query`", "Where the parameter goes: `path` or `query`."),
            GrammarKey(
                "schema", .shared("schemaOrName"), missing: " needs a schema",
                "A string, integer, number, boolean or enum: an inline schema, or a model's name or `$ref` when the model is an enum (a named plain string or number is refused here: write it inline); formats work (`uuid`, `date-time`, …)."
            ),
            GrammarKey(
                "required", .boolean, default: "`true` for `path`, `false` for `query`",
                "Whether the parameter must be given; a path parameter cannot be optional."),
            GrammarKey("description", .shared("text"), "Documentation of the parameter, on the Swift method."),
        ])
}
