@testable import SesameGenerator

/// Small schema folders built in memory for generator tests.
enum Fixture {
    static let sdk = """
        sdk: TestSDK
        server: { baseURL: https://auth.example.com }
        credential:
          token: { model: Token, accessToken: access_token, refreshToken: refresh_token, expiresIn: expires_in }
          rejected: { status: 401, wwwAuthenticate: { error: invalid_token } }
          details: me
          userID: id
        """

    static let auth = """
        operations:
          me: { request: GET /me, response: User }
        """

    /// The token model `sdk` names, the first model of `models`.
    static let tokenModel = """
        Token:
          type: object
          required: [access_token]
          properties:
            access_token: { type: string }
            refresh_token: { type: string }
            expires_in: { type: integer }
        """

    static let models = """
        \(tokenModel)
        User:
          type: object
          required: [id]
          properties:
            id: { type: string }
        """

    /// The base folder with some files replaced or added (`nil` removes a file).
    static func sources(_ overrides: [String: String?] = [:]) -> [SchemaSource] {
        var files: [String: String] = ["sdk.yaml": sdk, "auth.yaml": auth, "models.yaml": models]
        for (name, text) in overrides {
            if let text { files[name] = text } else { files.removeValue(forKey: name) }
        }
        return files.keys.sorted().map { SchemaSource(path: "Schema/\($0)", relativePath: $0, text: files[$0]!) }
    }

    static func validate(_ overrides: [String: String?] = [:]) -> GeneratorPipeline.Validation {
        GeneratorPipeline.validate(sources(overrides))
    }

    static func generate(_ overrides: [String: String?] = [:]) -> GeneratorPipeline.Generation {
        GeneratorPipeline.generate(sources(overrides))
    }

    /// The generated code of the top-level model `name`: its part of the file under `Models/`
    /// that holds it (from its `// MARK: - name` to the next model's), or a failure message.
    static func model(_ name: String, in generation: GeneratorPipeline.Generation) -> String {
        let marker = "// MARK: - \(name)\n"
        for file in generation.files where file.path.hasPrefix("Models/") {
            guard let start = file.contents.range(of: marker) else { continue }
            let rest = file.contents[start.lowerBound...]
            let end = rest.dropFirst(marker.count).range(of: "\n// MARK: - ")?.lowerBound ?? rest.endIndex
            return String(rest[..<end])
        }
        return "<no model \(name); diagnostics: \(generation.diagnostics)>"
    }

    /// The generated file at `path`, or a failure message as its text.
    static func file(_ path: String, in generation: GeneratorPipeline.Generation) -> String {
        generation.files.first { $0.path == path }?.contents ?? "<no file \(path); diagnostics: \(generation.diagnostics)>"
    }

    /// Every diagnostic printed as the CLI prints it.
    static func printed(_ overrides: [String: String?]) -> [String] {
        validate(overrides).diagnostics.map(\.description)
    }

    /// The diagnostics of the fixture with `extra` models appended to its models file (they
    /// start on line 13).
    static func printed(models extra: String) -> [String] {
        printed(["models.yaml": models + "\n" + extra])
    }
}
