@_spi(Generated) import SesameDescription

/// sdk.yaml: the SDK's name, its servers, its credential and its lifecycle.
extension Grammar {
    static let sdkFile = GrammarMapping(
        "sdk.yaml", "sdk.yaml: the SDK's name, its server and its credential.",
        keys: [
            GrammarKey(
                "sdk", .shared("identifier"), missing: " must name the SDK (sdk: MySDK)",
                "The SDK's name: a Swift module name."),
            GrammarKey("description", .shared("text"), "Documentation of the SDK."),
            GrammarKey(
                "server", .mapping(apiServer), missing: " must declare server: { baseURL: https://… }",
                "The API's server: operations, and by default every step. The only origin that receives the access token."),
            GrammarKey(
                "authorizationServer", .mapping(authorizationServer),
                "The authorization server (token, authorization and revocation endpoints) when it is on an origin of its own; without it, the API's server is the authorization server too."
            ),
            GrammarKey(
                "openID", .mapping(openID),
                "OpenID Connect: the provider's signing keys and how ID tokens are validated; browser steps with openID: true are OpenID Connect sign-ins. Needs authorizationServer.issuer."
            ),
            GrammarKey(
                "credential", .mapping(credential), missing: " must declare the credential",
                "The credential: where it comes from, how it is applied, refreshed and rejected."),
            GrammarKey("lifecycle", .mapping(lifecycle), "Operations the authentication service itself calls."),
            GrammarKey(
                "references", .mapping(references),
                "Where files a $ref names may be read from besides the schema folder, and the remote URIs that stand for local files."
            ),
            GrammarKey(
                "models", .mapping(modelOptions),
                "How closely the generated models follow JSON Schema where the defaults differ on purpose: enums (open or closed) and formats (assert or annotate)."
            ),
        ])

    static let modelOptions = GrammarMapping(
        "models", "Options of the generated models (docs/format.md, models: enums and formats).",
        keys: [
            GrammarKey(
                "enums", .oneOf(ModelOptions.Enums.allCases.map(\.rawValue)),
                "open (default): enums and discriminated unions keep values they do not list as .unknown; closed: they have no .unknown case and refuse such values, as JSON Schema's enum does."
            ),
            GrammarKey(
                "formats", .oneOf(ModelOptions.Formats.allCases.map(\.rawValue)),
                "assert (default): email, uri-reference, hostname, ipv4 and ipv6 are checked on decode and encode; annotate: they are documentation only, as draft 2020-12 says. date-time, date, uuid and uri always parse: they decide the Swift type."
            ),
            GrammarKey(
                "unknown", .oneOf(ModelOptions.Unknown.allCases.map(\.rawValue)),
                "What an unknown keyword or format in a models file does. refuse (default): an error, since a typo is likely; ignore: a note, the keyword ignored and the format an annotation, as JSON Schema says and as referenced documents are always read. x- keys (OpenAPI extensions) are then ignored without a note."
            ),
        ])

    static let references = GrammarMapping(
        "references", "Files that $ref may name outside the schema folder (docs/format.md, References).",
        keys: [
            GrammarKey(
                "roots", .list(.string(), unique: true),
                "Folders, relative to the schema folder, whose files a $ref may name (../api); nothing else outside the folder is read."
            ),
            GrammarKey(
                "map", .dictionary(values: .string()),
                "Local files or folders, relative to the schema folder, by the URI prefix they stand for (https://example.com/schemas/: ../api/schemas/); any other remote $ref is an error."
            ),
        ])

    static let baseURL: GrammarValue = .string(pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]+")

    static let apiServer = GrammarMapping(
        "server", "The API's server.",
        keys: [
            GrammarKey(
                "baseURL", baseURL, missing: " must declare its baseURL: { baseURL: https://… }", "An absolute http or https URL.")
        ])

    static let authorizationServer = GrammarMapping(
        "authorizationServer", "The authorization server.",
        keys: [
            GrammarKey(
                "baseURL", baseURL, missing: " must declare its baseURL: { baseURL: https://… }",
                "An absolute http or https URL; apps may override it at run time (authorizationServerURL)."),
            GrammarKey(
                "issuer", .string(),
                "Its issuer identifier (RFC 8414 §2): the iss of every authorization response must be this string exactly (RFC 9207); apps may override it at run time (authorizationServerIssuer)."
            ),
            GrammarKey(
                "issuerInResponses", .boolean,
                "Whether the server sends iss in every authorization response (its metadata's authorization_response_iss_parameter_supported): a response without one is then refused (default false; requires issuer)."
            ),
        ],
        extra: [("dependentRequired", .object([("issuerInResponses", .array([.string("issuer")]))]))])

    static let openID = GrammarMapping(
        "openID", "OpenID Connect: how the ID token of an openID browser step is validated (OpenID Connect Core §3.1.3.7).",
        keys: [
            GrammarKey(
                "keys", .string(pattern: "^(/|[Hh][Tt][Tt][Pp][Ss]://[^/?#]+)"),
                missing: " must say where the provider's keys are (keys: /oauth/jwks)",
                "The provider's JWKS (its jwks_uri): a path on the authorization server, or an absolute https URL."),
            GrammarKey(
                "algorithms", .list(.oneOf(OpenIDDescription.signingAlgorithms.sorted()), minimumCount: 1, unique: true),
                "The alg values accepted (default: "
                    + OpenIDDescription.signingAlgorithms.sorted().joined(separator: ", ") + "); none and HMAC are never accepted."),
            GrammarKey("clockSkew", .shared("duration"), "How far exp, iat and auth_time may be off the device's clock (default 60s)."),
            GrammarKey(
                "claims", .shared("modelName"),
                "A model the validated ID token's claims decode into, for the app to read typed (optional)."),
            GrammarKey(
                "userInfo", .shared("identifier"),
                "The operation that is the provider's UserInfo endpoint (OpenID Connect Core §5.3): on the authorization server, authenticated, returning a model with a required string sub; its response is refused unless its sub is the ID token's (§5.3.2)."
            ),
            GrammarKey(
                "endSession", .string(pattern: "^(/|[Hh][Tt][Tt][Pp][Ss]?://[^/?#]+)"),
                "The provider's end_session_endpoint (RP-Initiated Logout 1.0): a path on the authorization server, or an absolute URL on the issuer's or the authorization server's origin; sign-out opens it with id_token_hint (optional)."
            ),
            GrammarKey(
                "postLogoutRedirectURI", .string(),
                "The post_logout_redirect_uri the end-session request sends, registered for the client: an absolute URL without query or fragment; apps may override it at run time (postLogoutRedirectURI). Needs endSession."
            ),
        ],
        extra: [("dependentRequired", .object([("postLogoutRedirectURI", .array([.string("endSession")]))]))])

    static let credential = GrammarMapping(
        "credential", "The credential.",
        keys: [
            GrammarKey(
                "token", .mapping(token), missing: " must declare token: { model, accessToken, refreshToken, expiresIn }",
                "Where the credential lives in a token response."),
            GrammarKey("apply", .mapping(apply), "How the credential is applied to requests for the server's origin."),
            GrammarKey(
                "dpop", .mapping(dpop),
                "The server binds tokens to a key of the device (DPoP, RFC 9449): the access token goes as Authorization: DPoP, and every request to the API and the authorization server carries a DPoP proof. The app's configuration needs a proofOfPossession (SesameDPoP's DPoP). Not with apply."
            ),
            GrammarKey("refresh", .mapping(refresh), "How to refresh the credential."),
            GrammarKey(
                "rejected", .mapping(rejected),
                missing:
                    " must declare rejected: { status, wwwAuthenticate: { error } } so that only the auth server's own rejection triggers a refresh",
                "How to recognise the auth server's own rejection of the credential. A bare status is refused: it would refresh on any 401, a downstream service's too."
            ),
            GrammarKey(
                "details", .shared("identifier"), missing: " must name the operation that returns the user's details (details: me)",
                "The operation that returns the signed-in user's details (it must return a model), or idToken: the details are the claims of the ID token every method's OpenID Connect sign-in returns, decoded into openID.claims (no operation may then be named idToken)."
            ),
            GrammarKey(
                "userID", .string(),
                "The property of the details' model that names the user (required with a details operation; with details: idToken a required string claim, sub by default)."
            ),
        ],
        extra: [
            (
                "if", .object([("properties", .object([("details", .object([("not", .object([("const", .string("idToken"))]))]))]))])
            ),
            ("then", .object([("required", .array([.string("userID")]))])),
        ])

    static let token = GrammarMapping(
        "credential.token", "Where the credential lives in a token response.",
        keys: [
            GrammarKey(
                "model", .shared("modelName"), missing: " must name its model",
                "The model of the token response (the last step of every method returns it)."),
            GrammarKey("accessToken", .string(), "The property holding the access token (default access_token)."),
            GrammarKey("refreshToken", .string(), "The property holding the refresh token, if any."),
            GrammarKey("expiresIn", .string(), "The property holding the lifetime in seconds (RFC 6749 §5.1), if any."),
        ])

    static let apply = GrammarMapping(
        "credential.apply", "How the credential is applied.",
        keys: [
            GrammarKey("header", .string(), "The header that carries the credential (default Authorization)."),
            GrammarKey(
                "format", .template(placeholders: ["accessToken"]),
                "The header's value; `{accessToken}` is the only placeholder (default `Bearer {accessToken}`)."),
        ])

    static let dpop = GrammarMapping(
        "credential.dpop", "Tokens bound to a key of the device (DPoP, RFC 9449).",
        keys: [
            GrammarKey(
                "algorithms", .list(.string(), minimumCount: 1, unique: true),
                "The JWS algorithms the server accepts for proofs (its dpop_signing_alg_values_supported; sesame discover fills it). Sesame signs with ES256, which the list must hold."
            )
        ])

    /// The body fields of the refresh and revocation requests.
    static let tokenFields: GrammarValue = .dictionary(values: .template(placeholders: ["accessToken", "refreshToken"]))

    static let refresh = GrammarMapping(
        "credential.refresh", "How to refresh the credential.",
        keys: [
            GrammarKey("request", .shared("requestLine"), missing: " needs a request", "The refresh request."),
            GrammarKey("server", .shared("server"), "The server of the refresh request (default authorization)."),
            GrammarKey("encoding", .shared("encoding"), "How the body is encoded (default json)."),
            GrammarKey("clientAuthentication", .shared("clientAuthentication"), "How the client authenticates (default none)."),
            GrammarKey("fields", tokenFields, "The body's fields; placeholders `{refreshToken}` and `{accessToken}`."),
            GrammarKey("leeway", .shared("duration"), "Refresh this long before expiry (default 60s)."),
            GrammarKey("window", .mapping(window), "Loop protection: at most maxRefreshes refreshes per window."),
        ])

    static let window = GrammarMapping(
        "window", "Loop protection.",
        keys: [
            GrammarKey("maxRefreshes", .integer(minimum: 1), "Most refreshes per window (default 5)."),
            GrammarKey("per", .shared("duration"), "The window's length (default 30s)."),
        ])

    static let rejected = GrammarMapping(
        "credential.rejected", "How to recognise the auth server's rejection.",
        keys: [
            GrammarKey("status", .integer(minimum: 400, maximum: 499), "The status of the auth server's rejection (default 401)."),
            GrammarKey("wwwAuthenticate", .mapping(wwwAuthenticate), "The Bearer challenge of the rejection."),
            GrammarKey("body", .mapping(rejectedBody), "The error body of the rejection."),
        ],
        requiresOneOf: ["wwwAuthenticate", "body"])

    static let wwwAuthenticate = GrammarMapping(
        "wwwAuthenticate", "The Bearer challenge.",
        keys: [
            GrammarKey(
                "error", .string(), missing: " needs its error (wwwAuthenticate: { error: invalid_token })",
                "The `error` of the Bearer challenge (RFC 6750 §3), such as invalid_token.")
        ])

    static let rejectedBody = GrammarMapping(
        "body", "The error body.",
        keys: [
            GrammarKey(
                "code", .string(), missing: " needs its code (body: { code: invalid_token })",
                "The error code in the body (the envelope's code field).")
        ])

    static let lifecycle = GrammarMapping(
        "lifecycle", "Operations the authentication service itself calls.",
        keys: [
            GrammarKey("signOut", .shared("identifier"), "The operation that revokes the session on sign-out."),
            GrammarKey("detachIdentity", .shared("identifier"), "The operation that detaches the identity the user signed in with."),
            GrammarKey("destroyAccount", .shared("identifier"), "The operation that destroys the account."),
            GrammarKey(
                "revoke", .mapping(revoke),
                "An RFC 7009 revocation request sent at sign-out, after signOut: form-encoded by default, on the authorization server by default."
            ),
        ])

    static let revoke = GrammarMapping(
        "lifecycle.revoke", "An RFC 7009 revocation request.",
        keys: [
            GrammarKey("request", .shared("requestLine"), missing: " needs a request (POST /oauth/revoke)", "The revocation request."),
            GrammarKey("server", .shared("server"), "The server of the revocation request (default authorization)."),
            GrammarKey("encoding", .shared("encoding"), "How the body is encoded (default form)."),
            GrammarKey("clientAuthentication", .shared("clientAuthentication"), "How the client authenticates (default none)."),
            GrammarKey(
                "fields", .refined(tokenFields, [("required", .array([.string("token")]))]),
                "The body's fields; placeholders `{refreshToken}` and `{accessToken}`. Must hold `token`."),
        ],
        // The translator says why: "the revocation request must send the token to revoke".
        requiresOneOf: ["fields"])
}
