import Foundation

/// One synthetic API written twice: as an OpenAPI 3.1 document for swift-openapi-generator and
/// as a Sesame schema folder. Both hold the same `models` object models and the same
/// `models / 4` POST operations with JSON bodies, plus what Sesame cannot do without (a token
/// response model, a guest sign-in and a `me` operation), which the OpenAPI document declares
/// too, so both tools see the same API.
///
/// Each model has nine properties: a string, a string with length limits, an integer with a
/// minimum, a boolean, a date-time, an inline enum, an array (of strings on even models, of
/// `$ref`s on odd ones), a nullable string and a `$ref` to its parent (parents form a binary
/// tree, so references never make a cycle); model 0 has a boolean `root` instead of a parent.
/// `changed` adds a tenth property to one model: the one-model change of the incremental build.
struct SyntheticAPI {
    let models: Int
    var changed = false

    var operations: Int { max(1, models / 4) }

    static func modelName(_ index: Int) -> String { "Model\(index)" }

    /// The model the one-model change touches.
    var changedModel: Int { models / 2 }

    /// One property, as `name: { ... }`, with `ref` turning a model name into a reference.
    private func properties(_ index: Int, ref: (String) -> String) -> [String] {
        var lines = [
            "id: { type: string }",
            "title: { type: string, minLength: 1, maxLength: 200 }",
            "count: { type: integer, minimum: 0 }",
            "enabled: { type: boolean }",
            "createdAt: { type: string, format: date-time }",
            "kind: { type: string, enum: [small, medium, large] }",
            index % 2 == 0
                ? "tags: { type: array, items: { type: string } }"
                : "siblings: { type: array, items: { $ref: \"\(ref(Self.modelName(index / 2)))\" } }",
            "note: { type: [string, \"null\"] }",
            index > 0 ? "parent: { $ref: \"\(ref(Self.modelName((index - 1) / 2)))\" }" : "root: { type: boolean }",
        ]
        if changed && index == changedModel { lines.append("extra: { type: string }") }
        return lines
    }

    private var required: String { "[id, title, count, createdAt]" }

    // MARK: OpenAPI 3.1

    var openAPIDocument: String {
        let ref = { (name: String) in "#/components/schemas/\(name)" }
        var text = """
            openapi: 3.1.0
            info:
              title: BenchAPI
              version: 1.0.0
              description: A synthetic API of \(models) models.
            servers:
              - url: https://bench.example.com
            paths:
              /auth/guest:
                post:
                  operationId: guest
                  description: Signs in as a guest.
                  responses:
                    '200':
                      description: The token response.
                      content:
                        application/json:
                          schema: { $ref: "\(ref("TokenResponse"))" }
              /me:
                get:
                  operationId: me
                  description: Returns the signed-in user.
                  responses:
                    '200':
                      description: The account.
                      content:
                        application/json:
                          schema: { $ref: "\(ref("Account"))" }

            """
        for index in 0..<operations {
            let model = Self.modelName((index * 4) % models)
            text += """
                  /resources\(index):
                    post:
                      operationId: create\(model)At\(index)
                      description: Creates one \(model).
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: { $ref: "\(ref(model))" }
                      responses:
                        '200':
                          description: The \(model) created.
                          content:
                            application/json:
                              schema: { $ref: "\(ref(model))" }

                """
        }
        text += "components:\n  schemas:\n"
        return text + schemas(indent: "    ", ref: ref)
    }

    /// The peer's configuration: the types and the client, public, as an SDK would ship.
    var openAPIConfig: String {
        """
        generate:
          - types
          - client
        accessModifier: public

        """
    }

    // MARK: Sesame

    var sesameSDK: String {
        """
        sdk: BenchSDK
        description: A synthetic API of \(models) models.
        server: { baseURL: https://bench.example.com }
        credential:
          token:
            model: TokenResponse
            accessToken: access_token
            refreshToken: refresh_token
            expiresIn: expires_in
          rejected: { status: 401, wwwAuthenticate: { error: invalid_token } }
          details: me
          userID: userID

        """
    }

    var sesameAuth: String {
        var text = """
            methods:
              guest:
                description: Signs in as a guest.
                steps:
                  - request: POST /auth/guest
                    response: TokenResponse
            operations:
              me:
                description: Returns the signed-in user.
                request: GET /me
                response: Account

            """
        for index in 0..<operations {
            let model = Self.modelName((index * 4) % models)
            text += """
                  create\(model)At\(index):
                    description: Creates one \(model).
                    request: POST /resources\(index)
                    body: \(model)
                    response: \(model)

                """
        }
        return text
    }

    var sesameModels: String { schemas(indent: "", ref: { "#/\($0)" }) }

    /// The models, each line after `indent`: the same text in both inputs but for the
    /// indentation (under `components.schemas` in OpenAPI) and the form of a reference.
    private func schemas(indent: String, ref: (String) -> String) -> String {
        var lines = [
            "TokenResponse:", "  type: object", "  required: [access_token]", "  properties:",
            "    access_token: { type: string }", "    refresh_token: { type: string }",
            "    expires_in: { type: integer, minimum: 0 }",
            "Account:", "  type: object", "  required: [userID]", "  properties:", "    userID: { type: string }",
        ]
        for index in 0..<models {
            lines += [
                "\(Self.modelName(index)):", "  description: Synthetic model number \(index).", "  type: object",
                "  required: \(required)", "  properties:",
            ]
            lines += properties(index, ref: ref).map { "    " + $0 }
        }
        return lines.map { indent + $0 + "\n" }.joined()
    }

    // MARK: Files

    /// Writes `openapi.yaml` and `openapi-generator-config.yaml` into `openAPIFolder`, and
    /// `sdk.yaml`, `auth.yaml`, `models.yaml` into `sesameFolder` (both created if needed).
    func write(openAPIFolder: String, sesameFolder: String) throws {
        try Self.write(["openapi.yaml": openAPIDocument, "openapi-generator-config.yaml": openAPIConfig], into: openAPIFolder)
        try Self.write(["sdk.yaml": sesameSDK, "auth.yaml": sesameAuth, "models.yaml": sesameModels], into: sesameFolder)
    }

    static func write(_ files: [String: String], into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name), options: .atomic)
        }
    }
}
