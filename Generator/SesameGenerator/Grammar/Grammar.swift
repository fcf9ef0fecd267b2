@_spi(Generated) import SesameDescription

/// The YAML format's grammar, in one place: every mapping a schema folder may hold, the
/// keys it accepts, each key's type, whether it is required, its default, the keys it needs
/// or excludes, and its meaning.
///
/// The translators read their mappings through it (`NodeReader.mapping(_:_:grammar:)`
/// refuses unknown keys with a suggestion and reports missing required keys), and
/// `FormatJSONSchema` renders it as docs/sesame-format.schema.json for editors and
/// `FormatMarkdown` as docs/format.md's key tables. To add a key: add a `GrammarKey` to its
/// mapping here, read it in the translator, explain it in docs/format.md's prose and run
/// `make grammar`.
enum Grammar {
    /// Every mapping a translator reads through the grammar, for the tests that keep the
    /// table and the translators in step.
    static let all: [GrammarMapping] =
        [
            sdkFile, apiServer, authorizationServer, openID, credential, token, apply, refresh, window, rejected, wwwAuthenticate,
            rejectedBody, lifecycle, revoke, authFile, method, step, browser, device, operation, operationParameter,
            errorsFile, envelope, error, eventsFile, event, storeFile,
        ] + storeSections.map(\.1) + [storeVersion, column, index, schema, discriminator]

    /// Forms used in several places, rendered once under `$defs`, in this order.
    static let shared: [(name: String, meaning: String, value: GrammarValue)] = [
        (
            "identifier", "A name used in Swift and in templates: ASCII letters, digits and _, not starting with a digit.",
            .string(pattern: "^[A-Za-z_][A-Za-z0-9_]*$")
        ),
        ("text", "Free text (documentation comments in the generated Swift).", .string()),
        (
            "duration", "A duration: a whole number followed by ms, s, m or h (250ms, 60s, 5m, 1h); a bare number is seconds.",
            .either([.string(pattern: "^ *[0-9]+(ms|s|m|h)? *$"), .integer(minimum: 0)])
        ),
        (
            "requestLine",
            "`<METHOD> <path>`, such as `POST /auth/guest` or `DELETE /identities/{provider}`. Methods: "
                + RequestMethod.allCases.map(\.rawValue).joined(separator: ", ") + ". `{name}` in the path is a path parameter.",
            .string(pattern: requestLinePattern)
        ),
        (
            "encoding", "How the body is encoded: json (the default) or form (application/x-www-form-urlencoded).",
            .oneOf(["json", "form"])
        ),
        (
            "clientAuthentication",
            "How the client authenticates (RFC 6749 §2.3): basic (an Authorization: Basic header), post (client_id and client_secret in the body) or none (the default).",
            .oneOf(["basic", "post", "none"])
        ),
        (
            "server",
            "The server a request goes to: api (the default of steps and operations) or authorization (the default of the refresh, browser and revocation requests). Client authentication goes only to the authorization server; the access token only to the API, unless a request there says authenticated: true.",
            .oneOf(ServerRole.allCases.map(\.rawValue))
        ),
        (
            "template", "A literal value, or a string with `{placeholders}`: `{parameter}`, `{need}` or `{step.field}`.",
            .either([
                .string(pattern: "^([^{]|\\{[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*\\})*$"),
                .jsonTypes(["number", "boolean", "null"]),
            ])
        ),
        ("modelName", "The name of a model declared at the top level of a models file.", .refined(.string(), [("minLength", .integer(1))])),
        (
            "schemaRef",
            "`#/Name` names a model declared in any file of the schema folder; `file.yaml#/Name` insists on the file (a path relative to the schema folder); `#/$defs/Name`, `#/Model/$defs/Name` and other JSON pointers name a schema inside a file; `#anchor` a schema's `$anchor`; a schema's `$id` names it too. `schemas/user.json`, `openapi.yaml#/components/schemas/User`: a schema of a JSON Schema or OpenAPI document, relative to the file (outside the folder only under sdk.yaml's references.roots). A remote URI only when references.map maps it to a local file.",
            .refined(.string(), [("minLength", .integer(1))])
        ),
        (schema.name, schema.summary, .mapping(schema)),
        ("schemaOrName", "A schema, or the bare name of a declared model.", .either([.shared("modelName"), .shared("schema")])),
        (
            "subschema", "A schema, the bare name of a model, or true / false.",
            .either([.boolean, .shared("schemaOrName")])
        ),
        (
            "parameterSchema", "A parameter: the bare name of a model, or a schema that may add `secret: true`.",
            .either([.shared("modelName"), .mapping(parameterSchema)])
        ),
        ("sdkFile", sdkFile.summary, .mapping(sdkFile)),
        ("authFile", authFile.summary, .mapping(authFile)),
        ("errorsFile", errorsFile.summary, .mapping(errorsFile)),
        ("eventsFile", eventsFile.summary, .mapping(eventsFile)),
        ("storeColumn", "A column: its type, or a mapping with its type and more.", .either([columnType, .mapping(column)])),
        (
            "storeTable", "A table: column names to types.",
            .dictionary(names: .string(pattern: "^[A-Za-z_][A-Za-z0-9_]*$"), values: .shared("storeColumn"), minimumCount: 1)
        ),
        ("storeVersion", storeVersion.summary, .mapping(storeVersion)),
        ("storeFile", storeFile.summary, .mapping(storeFile)),
        ("modelsFile", modelsFile.summary, .mapping(modelsFile)),
    ]

    /// The file kinds, in the order of the JSON Schema's root `anyOf`.
    static let fileKinds = ["sdk", "auth", "errors", "events", "store", "models"]

    /// `GET /path/{name}`: a method of `RequestMethod` (any case), a path of literal
    /// characters and `{identifier}` parameters.
    static var requestLinePattern: String {
        let methods = RequestMethod.allCases.map { method in
            method.rawValue.map { "[\($0)\($0.lowercased())]" }.joined()
        }
        return "^ *(" + methods.joined(separator: "|") + ") +/([^ {]|\\{[A-Za-z_][A-Za-z0-9_]*\\})* *$"
    }

    static var columnType: GrammarValue { .oneOf(StoreColumnTypeIR.allCases.map(\.rawValue)) }
}
