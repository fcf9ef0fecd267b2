@_spi(Generated) import SesameDescription

/// sdk.yaml: the SDK's name, its servers, its credential and its lifecycle.
extension Grammar {
    static let sdkFile = GrammarMapping(
        "sdk.yaml", "sdk.yaml: the SDK's name, its server and its credential.",
        keys: [
            GrammarKey(
                "sdk", .shared("identifier"), missing: " must name the SDK (sdk: MySDK)",
                "The SDK's name, a Swift module name (an identifier)."),
            GrammarKey("description", .shared("text"), "Documentation of the SDK."),
            GrammarKey(
                "server", .mapping(apiServer), missing: " must declare server: { baseURL: https://… }",
                "The API's server: operations, and by default every step. The only origin that receives the access token."),
            GrammarKey(
                "authorizationServer", .mapping(authorizationServer),
                "The authorization server (token, authorization and revocation endpoints) when it is on an origin of its own ([Several servers](#several-servers-browser-sign-in-and-revocation)); without it, the API's server is the authorization server too."
            ),
            GrammarKey(
                "openID", .mapping(openID),
                requires: ["authorizationServer.issuer"],
                "OpenID Connect: the provider's signing keys and how ID tokens are validated; browser steps with `openID: true` are OpenID Connect sign-ins ([openID](#openid-openid-connect-sign-in))."
            ),
            GrammarKey(
                "credential", .mapping(credential), missing: " must declare the credential",
                "The credential: where it comes from, how it is applied, refreshed and rejected."),
            GrammarKey("lifecycle", .mapping(lifecycle), "Operations the authentication service itself calls ([lifecycle](#lifecycle))."),
            GrammarKey(
                "references", .mapping(references),
                "Where files a `$ref` names may be read from besides the schema folder, and the remote URIs that stand for local files ([References](#references-to-json-schema-and-openapi-documents))."
            ),
            GrammarKey(
                "models", .mapping(modelOptions),
                "How closely the generated models follow JSON Schema where the defaults differ on purpose: `enums: open | closed`, `formats: assert | annotate` and `unknown: refuse | ignore`, the SDK's defaults or JSON Schema's own meaning ([models: enums and formats](#models-enums-and-formats))."
            ),
        ])

    static let modelOptions = GrammarMapping(
        "models", "Options of the generated models (docs/format.md, models: enums and formats).",
        keys: [
            GrammarKey(
                "enums", .oneOf(ModelOptions.Enums.allCases.map(\.rawValue)), default: "`open`",
                "`open`: a generated enum keeps a value the schema does not list as `.unknown(raw)`, and a discriminated `oneOf` an unknown variant as `.unknown(<discriminator>:value:)` (the label is the discriminator's name, `kind:` for `propertyName: kind`): a back-end may add a value without breaking apps already shipped ([Where decoding is wider](#where-decoding-is-wider-than-json-schema)). `closed`: neither has an `.unknown` case: a `switch` over them is exhaustive, `init?(rawValue:)` returns nil for an unlisted value, and decoding one throws `SchemaViolation` (keyword `enum`, or `oneOf` for an unknown discriminator), as JSON Schema's `enum` refuses it. For apps that ship with their back-end."
            ),
            GrammarKey(
                "formats", .oneOf(ModelOptions.Formats.allCases.map(\.rawValue)), default: "`assert`",
                "`assert`: `email`, `uri-reference`, `hostname`, `ipv4` and `ipv6` are checked on decode and encode by the runtime's parsers ([Strings and formats](#strings-and-formats)). `annotate`: those five are annotations, as draft 2020-12 says by default: the property is a plain `String`, its doc comment says `Format: email (an annotation: not checked).`, nothing checks it on decode or encode, and in a JSON check (`not`, `if`, `items` of a tuple, …) the format is left out (`not: { format: ipv4 }` is `not: {}`, which no value passes). `date-time`, `date`, `uuid` and `uri` always parse: they decide the Swift type."
            ),
            GrammarKey(
                "unknown", .oneOf(ModelOptions.Unknown.allCases.map(\.rawValue)), default: "`refuse`",
                "What an unknown keyword or format in the models files does. `refuse`: a key no schema keyword has (`optional: true`, `x-go-name`) and a format Sesame does not know (`phone`) are errors: in a file the team writes, they are most likely typos. `ignore`: they are read as JSON Schema 2020-12 reads them, as [referenced documents](#documents-the-team-does-not-own) always are: the key is ignored with a note, the format is an annotation (the type it names, unchecked) with a note; `x-` keys (OpenAPI's extensions) are ignored without one."
            ),
        ])

    static let references = GrammarMapping(
        "references", "Files that $ref may name outside the schema folder (docs/format.md, References).",
        keys: [
            GrammarKey(
                "roots", .list(.string(), unique: true),
                "Folders outside the schema folder, relative to it, whose files a `$ref` may name (`../api`); nothing else outside the folder is read."
            ),
            GrammarKey(
                "map", .dictionary(values: .string()),
                "Remote URI prefixes and the local files or folders, relative to the schema folder, they stand for (`https://example.com/schemas/: ../api/schemas/`); any other remote `$ref` is an error."
            ),
        ],
        inline: true)

    static let baseURL: GrammarValue = .string(pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]+")

    static let apiServer = GrammarMapping(
        "server", "The API's server.",
        keys: [
            GrammarKey(
                "baseURL", baseURL, missing: " must declare its baseURL: { baseURL: https://… }",
                "An absolute `http` or `https` URL; every request line's path is relative to it (or to `authorizationServer.baseURL`, see [Several servers](#several-servers-browser-sign-in-and-revocation)), and the credential is sent to its origin only. Apps may override it at run time (the configuration's `baseURL`)."
            )
        ],
        inline: true)

    static let authorizationServer = GrammarMapping(
        "authorizationServer", "The authorization server.",
        keys: [
            GrammarKey(
                "baseURL", baseURL, missing: " must declare its baseURL: { baseURL: https://… }",
                "An absolute `http` or `https` URL. Apps may override it at run time (the configuration's `authorizationServerURL`, [docs/runtime.md](runtime.md#several-servers))."
            ),
            GrammarKey(
                "issuer", .string(),
                "Its issuer identifier (RFC 8414 §2: the `issuer` of its metadata), an absolute URL without query or fragment (`https`, or `http` for a server on loopback). The `iss` of every authorization response of a browser step must be this string exactly (RFC 9207); apps may override it at run time (`authorizationServerIssuer`)."
            ),
            GrammarKey(
                "issuerInResponses", .boolean, default: "`false`", requires: ["issuer"],
                "`true` when the server puts `iss` in every authorization response (its metadata's `authorization_response_iss_parameter_supported`); a response without `iss` is then refused."
            ),
        ])

    static let openID = GrammarMapping(
        "openID", "OpenID Connect: how the ID token of an openID browser step is validated (OpenID Connect Core §3.1.3.7).",
        keys: [
            GrammarKey(
                "keys", .string(pattern: "^(/|[Hh][Tt][Tt][Pp][Ss]://[^/?#]+)"),
                missing: " must say where the provider's keys are (keys: /oauth/jwks)",
                "The provider's JSON Web Key Set (its discovery document's `jwks_uri`): a path on the authorization server (`/oauth/jwks`, resolved against its base URL at run time, so it follows the app's `authorizationServerURL`), or an absolute `https` URL."
            ),
            GrammarKey(
                "algorithms", .list(.oneOf(OpenIDDescription.signingAlgorithms.sorted()), minimumCount: 1, unique: true),
                default: "all of them",
                "The `alg` values accepted. `none` and the HMAC algorithms (`HS256`…) are refused: a public client has no secret to verify them with."
            ),
            GrammarKey(
                "clockSkew", .shared("duration"), default: "`60s`",
                "A [duration](#durations): how far `exp`, `iat` and `auth_time` may be off the device's clock."),
            GrammarKey(
                "claims", .shared("modelName"),
                "The name of a model the validated ID token's claims decode into: the generated SDK then has `service.idTokenClaims()`, which returns it (docs/runtime.md, \"Typed claims\"); with `credential.details: idToken` it is also the user's details ([above](#credentialdetails-and-credentialuserid))."
            ),
            GrammarKey(
                "userInfo", .shared("identifier"),
                "The name of the operation (of `auth.yaml`) that is the provider's UserInfo endpoint (OpenID Connect Core §5.3): on the authorization server, authenticated, returning a model with a required string `sub`; its response is returned only when its `sub` is the ID token's (§5.3.2, [below](#userinfo-the-providers-userinfo-endpoint))."
            ),
            GrammarKey(
                "endSession", .string(pattern: "^(/|[Hh][Tt][Tt][Pp][Ss]?://[^/?#]+)"),
                "The provider's `end_session_endpoint` (RP-Initiated Logout 1.0; `sesame discover` writes it): a path on the authorization server (`/oauth/logout`, a query allowed; resolved against its base URL at run time, so it follows the app's `authorizationServerURL`), or an absolute URL on the **issuer's or the authorization server's origin**, `https` (`http` only on loopback), without a fragment. With it, sign-out of a session that holds an ID token opens it in the browser with `id_token_hint` and waits for the redirect back (docs/runtime.md, \"Ending the session at the OpenID provider\")."
            ),
            GrammarKey(
                "postLogoutRedirectURI", .string(), requires: ["endSession"],
                "The `post_logout_redirect_uri` the end-session request sends, one registered for the client: an absolute URL without query or fragment, like a browser step's `redirectURI`; apps may replace it at run time (the configuration's `postLogoutRedirectURI`). Without it (a warning), the app must set one, or sign-out does not open the endpoint and its result says why."
            ),
        ])

    static let credential = GrammarMapping(
        "credential", "The credential.",
        keys: [
            GrammarKey(
                "token", .mapping(token), missing: " must declare token: { model, accessToken, refreshToken, expiresIn }",
                "Where the credential lives in a token response."),
            GrammarKey("apply", .mapping(apply), "How the credential is applied to requests for the server's origin."),
            GrammarKey(
                "dpop", .mapping(dpop),
                conflicts: ["apply"],
                "The server binds tokens to a key of the device (DPoP, RFC 9449): the access token goes as `Authorization: DPoP`, and every request to the API and the authorization server carries a DPoP proof. The app's configuration needs a `proofOfPossession` (`SesameDPoP`'s `DPoP`)."
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
                "The operation (of `auth.yaml`) that returns the signed-in user's details (its `response` must be a model), called right after each sign-in; or `idToken`: the details are the claims of the ID token every method's OpenID Connect sign-in returns, decoded into `openID.claims` (no operation may then be named `idToken`)."
            ),
            GrammarKey(
                "userID", .string(), requiredWhen: "with a details operation",
                "The property of the details' model that identifies the user: the SDK keys each user's context and stores by it. With `details: idToken`, a required, non-null string claim, `sub` by default."
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
                "The model of the token response (the last step of every method returns it, and the refresh request too)."),
            GrammarKey("accessToken", .string(), default: "`access_token`", "Its property holding the access token."),
            GrammarKey(
                "refreshToken", .string(), "Its property holding the refresh token; without one the SDK cannot refresh."),
            GrammarKey(
                "expiresIn", .string(),
                "Its property holding the lifetime in seconds (RFC 6749 §5.1); without one the SDK refreshes only on rejection."),
        ])

    static let apply = GrammarMapping(
        "credential.apply", "How the credential is applied.",
        keys: [
            GrammarKey("header", .string(), default: "`Authorization`", "The header that carries the credential."),
            GrammarKey(
                "format", .template(placeholders: ["accessToken"]),
                default: "`\"Bearer {accessToken}\"`", "The header's value; `{accessToken}` is the only placeholder."),
        ])

    static let dpop = GrammarMapping(
        "credential.dpop", "Tokens bound to a key of the device (DPoP, RFC 9449).",
        keys: [
            GrammarKey(
                "algorithms", .list(.string(), minimumCount: 1, unique: true),
                default: "`[ES256]`",
                "The JWS algorithms the server accepts for proofs (its `dpop_signing_alg_values_supported`; `sesame discover` fills it). Sesame signs with ES256, which the list must hold."
            )
        ])

    /// The body fields of the refresh and revocation requests.
    static let tokenFields: GrammarValue = .dictionary(values: .template(placeholders: ["accessToken", "refreshToken"]))

    static let refresh = GrammarMapping(
        "credential.refresh", "How to refresh the credential.",
        keys: [
            GrammarKey("request", .shared("requestLine"), missing: " needs a request", "The refresh request's request line."),
            GrammarKey("server", .shared("server"), default: "`authorization`", "The server of the refresh request."),
            GrammarKey(
                "encoding", .shared("encoding"), default: "`json`",
                "`json`, or `form` (`application/x-www-form-urlencoded`, as RFC 6749 token requests are)."),
            GrammarKey(
                "clientAuthentication", .shared("clientAuthentication"), default: "`none`",
                "How the client authenticates (RFC 6749 §2.3): `basic` sends `Authorization: Basic base64(urlencode(id):urlencode(secret))` (§2.3.1), `post` adds `client_id` and `client_secret` to the body, `none` (a public client) adds `client_id` alone when the configuration has a client (RFC 6749 §6). `basic` and `post` need the app to configure client credentials; see [what each mode sends](#clientauthentication-what-each-mode-sends)."
            ),
            GrammarKey(
                "fields", tokenFields, "The body's fields, a template mapping; placeholders `{refreshToken}` and `{accessToken}`."),
            GrammarKey(
                "leeway", .shared("duration"), default: "`60s`",
                "Refresh this long before the credential expires (needs `token.expiresIn`)."),
            GrammarKey(
                "window", .mapping(window), default: "`{ maxRefreshes: 5, per: 30s }`",
                "Loop protection: at most `maxRefreshes` refreshes per `per`; past that the refresh fails."),
        ])

    static let window = GrammarMapping(
        "window", "Loop protection.",
        keys: [
            GrammarKey("maxRefreshes", .integer(minimum: 1), default: "`5`", "Most refreshes per window."),
            GrammarKey("per", .shared("duration"), default: "`30s`", "The window's length."),
        ],
        inline: true)

    static let rejected = GrammarMapping(
        "credential.rejected", "How to recognise the auth server's rejection.",
        keys: [
            GrammarKey(
                "status", .integer(minimum: 400, maximum: 499), default: "`401`", "The HTTP status of the auth server's rejection."),
            GrammarKey(
                "wwwAuthenticate", .mapping(wwwAuthenticate),
                "The `WWW-Authenticate` challenge of the rejection (`Bearer`, or `DPoP` with `credential.dpop`)."),
            GrammarKey("body", .mapping(rejectedBody), "The JSON error body of the rejection."),
        ],
        requiresOneOf: ["wwwAuthenticate", "body"])

    static let wwwAuthenticate = GrammarMapping(
        "wwwAuthenticate", "The Bearer challenge.",
        keys: [
            GrammarKey(
                "error", .string(), missing: " needs its error (wwwAuthenticate: { error: invalid_token })",
                "The `error` parameter of the challenge (RFC 6750 §3), such as `invalid_token`.")
        ],
        inline: true)

    static let rejectedBody = GrammarMapping(
        "body", "The error body.",
        keys: [
            GrammarKey(
                "code", .string(), missing: " needs its code (body: { code: invalid_token })",
                "The error code in the JSON body, read from the field `errors.yaml`'s `envelope.code` names (default `error`).")
        ],
        inline: true)

    static let lifecycle = GrammarMapping(
        "lifecycle", "Operations the authentication service itself calls.",
        keys: [
            GrammarKey(
                "signOut", .shared("identifier"),
                "The operation the service calls on `unauthenticate()`, with the credential being dropped, to revoke the session on the back-end. Without it, sign-out is local only."
            ),
            GrammarKey(
                "detachIdentity", .shared("identifier"),
                "The operation that detaches the identity the user signed in with, called on `detachCurrentIdentity()`; its path parameters are filled from the user's details (`/identities/{provider}` takes the details' `provider`). Without it, the call throws `invalidState`."
            ),
            GrammarKey(
                "destroyAccount", .shared("identifier"),
                "The operation that destroys the account, called on `destroyAccount()`. Without it, the call throws `invalidState`."),
            GrammarKey(
                "revoke", .mapping(revoke),
                "An RFC 7009 revocation request sent at sign-out, after `signOut` ([lifecycle.revoke](#lifecyclerevoke-revocation-at-sign-out))."
            ),
        ])

    static let revoke = GrammarMapping(
        "lifecycle.revoke", "An RFC 7009 revocation request.",
        keys: [
            GrammarKey(
                "request", .shared("requestLine"), missing: " needs a request (POST /oauth/revoke)",
                "The revocation endpoint (RFC 7009 §2.1); not GET or HEAD."),
            GrammarKey("server", .shared("server"), default: "`authorization`", "The server of the revocation request."),
            GrammarKey("encoding", .shared("encoding"), default: "`form`", "How the body is encoded, as RFC 7009 requires."),
            GrammarKey(
                "clientAuthentication", .shared("clientAuthentication"), default: "`none`",
                "`basic` or `post` for a confidential client; `none` sends the configuration's `client_id` alone (RFC 7009 §2.1)."),
            GrammarKey(
                "fields", .refined(tokenFields, [("required", .array([.string("token")]))]),
                "The body's fields; must hold `token`; placeholders `{refreshToken}` and `{accessToken}`."
            ),
        ],
        // The translator says why: "the revocation request must send the token to revoke".
        requiresOneOf: ["fields"])
}
