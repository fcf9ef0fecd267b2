import Foundation
import SesameGenerator

/// A schema folder built in memory: `models` object models of about eight properties of
/// mixed kinds, `models / 4` operations, a guest method, a small error catalogue, an
/// sdk.yaml shaped like the reference one, `models / 20` server-sent events (one of them
/// invalidating the session) and a store whose persistence has `models / 50` tables over
/// four versions (added columns, a rename, a type change, an index) and a recreated cache.
///
/// The same count always gives the same text, so runs compare.
struct SyntheticSchema {
    let models: Int

    var operations: Int { max(1, models / 4) }

    /// The files, as the CLI would read them from a folder called `Bench/`.
    var sources: [SchemaSource] {
        [
            source("sdk.yaml", sdkYAML),
            source("auth.yaml", authYAML),
            source("errors.yaml", errorsYAML),
            source("models.yaml", modelsYAML),
            source("events.yaml", eventsYAML),
            source("store.yaml", storeYAML),
        ]
    }

    /// Writes the files into `folder` (created if needed), as a schema folder for `sesame generate`.
    func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for source in sources {
            try Data(source.text.utf8).write(to: folder.appendingPathComponent(source.relativePath), options: .atomic)
        }
    }

    var events: Int { max(1, models / 20) }
    var tables: Int { max(2, models / 50) }

    private func source(_ name: String, _ text: String) -> SchemaSource {
        SchemaSource(path: "Bench/\(name)", relativePath: name, text: text)
    }

    static func modelName(_ index: Int) -> String { "Model\(index)" }

    // MARK: sdk.yaml

    var sdkYAML: String {
        """
        # A synthetic SDK for the generator benchmark.
        sdk: BenchSDK
        description: A synthetic SDK of \(models) models.
        server:
          baseURL: https://bench.example.com
        credential:
          token:
            model: TokenResponse
            accessToken: access_token
            refreshToken: refresh_token
            expiresIn: expires_in
          apply: { header: Authorization, format: "Bearer {accessToken}" }
          refresh:
            request: POST /oauth/token
            encoding: form
            clientAuthentication: basic
            fields: { grant_type: refresh_token, refresh_token: "{refreshToken}" }
            leeway: 60s
            window: { maxRefreshes: 5, per: 30s }
          rejected:
            status: 401
            wwwAuthenticate: { error: invalid_token }
          details: details
          userID: userID
        lifecycle:
          signOut: logout

        """
    }

    // MARK: events.yaml

    var eventsYAML: String {
        var text = """
            stream: GET /events
            events:
              sessionRevoked:
                description: The back-end revoked the session.
                wireName: session.revoked
                payload: { $ref: "#/Account" }
                effect: invalidate

            """
        for index in 0..<events {
            let model = Self.modelName(index * 20 % models)
            text += """
                  changed\(index):
                    description: \(model) changed.
                    wireName: model.changed.\(index)
                    payload: { $ref: "#/\(model)" }

                """
        }
        return text
    }

    // MARK: store.yaml

    /// Four persistence versions of `tables` tables each, then a recreated cache.
    var storeYAML: String {
        func version(_ number: Int, indexes: Bool = false, _ columns: String) -> String {
            var text = "  \(number):\n"
            for index in 0..<tables { text += "    Item\(index):\n" + columns }
            if indexes {
                text += "    indexes:\n"
                for index in 0..<tables { text += "      Item\(index)_pinned: { table: Item\(index), columns: [pinned] }\n" }
            }
            return text
        }
        let key = "      id: { type: text, primaryKey: true }\n"
        let renamed = key + "      text: { type: text, renamedFrom: body }\n      createdAt: real\n"
        let pinned = "      pinned: { type: boolean, default: false }\n"
        return "persistence:\n"
            + version(1, key + "      body: text\n      createdAt: integer\n")
            + version(2, key + "      body: text\n      createdAt: integer\n" + pinned)
            + version(3, indexes: true, renamed + pinned)
            + version(4, indexes: true, renamed + pinned + "      archived: { type: boolean, default: false }\n")
                + """
                cache:
                  policy: recreate
                  1:
                    Avatar:
                      userId: { type: text, primaryKey: true }
                      png: blob
                      fetchedAt: real

                """
    }

    // MARK: errors.yaml

    var errorsYAML: String {
        """
        envelope: { code: error, message: error_description }
        errors:
          invalid_grant: { status: 400, category: credential-rejected }
          invalid_token: { status: 401, category: credential-rejected }
          not_found:     { status: 404, category: client }
          rate_limited:  { status: 429, category: transient }

        """
    }

    // MARK: auth.yaml

    var authYAML: String {
        var text = """
            methods:
              guest:
                description: Signs in as a guest.
                steps:
                  - request: POST /auth/guest
                    response: TokenResponse
            operations:
              details:
                description: Returns the signed-in user.
                request: GET /me
                response: Account
              logout:
                request: POST /auth/logout

            """
        for index in 0..<operations {
            let model = Self.modelName((index * 4) % models)
            let resource = "/resources\(index)"
            switch index % 4 {
            case 0:
                text += """
                      get\(model)At\(index):
                        description: Reads one \(model).
                        request: GET \(resource)/{id}
                        parameters:
                          id: { in: path, schema: { type: string, minLength: 1 } }
                          verbose: { in: query, schema: { type: boolean } }
                        response: \(model)

                    """
            case 1:
                text += """
                      list\(model)At\(index):
                        description: Lists \(model) values.
                        request: GET \(resource)
                        parameters:
                          limit: { in: query, schema: { type: integer, minimum: 1, maximum: 100 } }
                          after: { in: query, schema: { type: string } }
                          state: { in: query, schema: { $ref: "#/State" } }
                        response: { type: array, items: { $ref: "#/\(model)" } }

                    """
            case 2:
                text += """
                      update\(model)At\(index):
                        description: Replaces one \(model).
                        request: PUT \(resource)/{id}
                        parameters:
                          id: { in: path, schema: { type: string } }
                        body: \(model)
                        response: \(model)

                    """
            default:
                text += """
                      delete\(model)At\(index):
                        request: DELETE \(resource)/{id}/{version}
                        parameters:
                          id: { in: path, schema: { type: string } }
                          version: { in: path, schema: { type: integer, minimum: 0 } }
                        freshAuthentication: 300s
                        response: { type: object, required: [deleted], properties: { deleted: { type: boolean } } }

                    """
            }
        }
        return text
    }

    // MARK: models.yaml

    var modelsYAML: String {
        var text = """
            TokenResponse:
              type: object
              required: [access_token, token_type]
              properties:
                access_token: { type: string }
                token_type: { type: string }
                expires_in: { type: integer, minimum: 0 }
                refresh_token: { type: string }

            Account:
              type: object
              required: [userID]
              properties:
                userID: { type: string, minLength: 1 }
                email: { type: string, format: email }

            State:
              type: string
              enum: [draft, active, archived]

            """
        for index in 0..<models {
            text += model(index)
        }
        return text
    }

    /// One object model of eight or nine properties: a reference to an earlier model (parents
    /// form a binary tree, so references never make a cycle and nest only log2(N) deep), an
    /// inline enum on every other model and a shared enum on the others, constraints,
    /// formats, a default and a nullable property.
    private func model(_ index: Int) -> String {
        let name = Self.modelName(index)
        var lines = [
            "\(name):",
            "  description: Synthetic model number \(index).",
            "  type: object",
            "  required: [id, title, count, createdAt]",
            "  properties:",
            "    id: { type: string, format: uuid }",
            "    title: { type: string, minLength: 1, maxLength: 200 }",
            "    count: { type: integer, minimum: 0, maximum: 1000000 }",
            "    enabled: { type: boolean, default: false }",
            "    createdAt: { type: string, format: date-time }",
        ]
        if index % 2 == 0 {
            lines.append("    ratio: { type: number, exclusiveMinimum: 0, maximum: 1 }")
            lines.append("    kind: { type: string, enum: [small, medium, large] }")
        } else {
            lines.append("    state: { $ref: \"#/State\" }")
        }
        switch index % 6 {
        case 0: lines.append("    tags: { type: array, items: { type: string, pattern: \"^[a-z0-9-]+$\" }, minItems: 0, maxItems: 20 }")
        case 1: lines.append("    contact: { type: string, format: email }")
        case 2: lines.append("    note: { type: [string, \"null\"], maxLength: 500 }")
        case 3: lines.append("    siblings: { type: array, items: { $ref: \"#/\(Self.modelName(index / 2))\" }, maxItems: 10 }")
        case 4: lines.append("    homepage: { type: string, format: uri }")
        default: lines.append("    day: { type: string, format: date }")
        }
        lines.append(
            index > 0 ? "    parent: { $ref: \"#/\(Self.modelName((index - 1) / 2))\" }" : "    root: { type: boolean, default: true }")
        return lines.joined(separator: "\n") + "\n\n"
    }
}
