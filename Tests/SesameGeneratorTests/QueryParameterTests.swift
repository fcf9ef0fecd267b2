import Testing

@testable import SesameGenerator

/// Query parameters of operations and of the token endpoint's requests (docs/format.md,
/// "Parameters").
@Suite struct QueryParameterTests {
    static func auth(_ parameters: String) -> String {
        """
        operations:
          me: { request: GET /me, response: User }
          search:
            request: GET /search
            parameters:
        \(parameters)
            response: User
        """
    }

    @Test func anInlineEnumIsAQueryParameter() {
        let generation = Fixture.generate(["auth.yaml": Self.auth("      sort: { in: query, schema: { type: string, enum: [asc, desc] } }")]
        )
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let operations = Fixture.file("Operations.swift", in: generation)
        #expect(operations.contains("public func search(sort: SearchSort? = nil) async throws -> User"))
        #expect(operations.contains(#"query: [("sort", sort.map { $0.rawValue })]"#))
        #expect(Fixture.model("SearchSort", in: generation).contains("public enum SearchSort"))
    }

    @Test func anInlineObjectIsStillRefused() {
        let printed = Fixture.printed([
            "auth.yaml": Self.auth("      filter: { in: query, schema: { type: object, properties: { a: { type: string } } } }")
        ])
        #expect(printed == ["Schema/auth.yaml:6:36: error: a query parameter must be a string, number, boolean or enum"])
    }

    // MARK: Constants

    /// The generated `path:` of each request description.
    static func paths(_ generation: GeneratorPipeline.Generation) -> [String] {
        Fixture.file("TestSDKSchema.swift", in: generation).split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            return text.hasPrefix("path: ") ? String(text.dropFirst("path: ".count).dropLast(text.hasSuffix(",") ? 1 : 0)) : nil
        }
    }

    @Test func aConstantQueryOnEveryKindOfRequestIsEncodedOnce() {
        let sdk =
            Fixture.sdk.replacingOccurrences(
                of: "  rejected:",
                with: """
                      refresh: { request: "POST /token?grant_type=refresh_token", fields: { refresh_token: "{refreshToken}" } }
                      rejected:
                    """)
                + """

                lifecycle:
                  signOut: me
                  revoke: { request: "POST /revoke?token_type_hint=refresh%5Ftoken", fields: { token: "{refreshToken}" } }
                """
        let auth = """
            methods:
              password:
                parameters: { username: { type: string }, password: { type: string, secret: true } }
                steps:
                  - request: POST /token?grant_type=password&scope=a%20b/é+c
                    body: { username: "{username}", password: "{password}" }
                    response: Token
            operations:
              me: { request: GET /me, response: User }
              search: { request: "GET /search/{id}?api-version=2024-05-01&empty=", response: User }
            """
        let generation = Fixture.generate(["sdk.yaml": sdk, "auth.yaml": auth])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let paths = Self.paths(generation)
        // Escapes stay as written (`%20`, `%5F`), what a query cannot hold is encoded as UTF-8.
        #expect(paths.contains(#""/token?grant_type=password&scope=a%20b/%C3%A9+c""#), "\(paths)")
        #expect(paths.contains(#""/token?grant_type=refresh_token""#), "\(paths)")
        #expect(paths.contains(#""/revoke?token_type_hint=refresh%5Ftoken""#), "\(paths)")
        #expect(paths.contains(#""/search/{id}?api-version=2024-05-01&empty=""#), "\(paths)")
        // The path parameter is the operation's; the query's names are not.
        #expect(Fixture.file("Operations.swift", in: generation).contains("public func search(id: String) async throws -> User"))
    }

    @Test func aConstParameterGoesOnTheRequestLine() {
        let generation = Fixture.generate([
            "auth.yaml": Self.auth(
                """
                      key: { in: query, schema: { type: string, const: "a&b c" } }
                      limit: { in: query, schema: { const: 10 } }
                      sort: { in: query, schema: { type: string, enum: [asc, desc] } }
                """)
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(Self.paths(generation).contains(#""/search?key=a%26b%20c&limit=10""#), "\(Self.paths(generation))")
        #expect(Fixture.file("Operations.swift", in: generation).contains("public func search(sort: SearchSort? = nil)"))
    }

    @Test(arguments: [
        (
            "GET /search?q={q}",
            "4:14: error: the query of the request of 'search' is constant: declare a value the app gives as a parameter with 'in: query'"
        ),
        (
            "GET /search?a=1&&b=2",
            "4:14: error: the query of the request of 'search' has an item without a name (''); write name=value pairs joined by '&'"
        ),
        (
            "GET /search?=1",
            "4:14: error: the query of the request of 'search' has an item without a name ('=1'); write name=value pairs joined by '&'"
        ),
        (
            "GET /search?a=100%",
            "4:14: error: the query of the request of 'search' has a '%' that starts no percent-escape; write '%25' for a '%'"
        ),
        (
            "GET /search?a=%zz",
            "4:14: error: the query of the request of 'search' has a '%' that starts no percent-escape; write '%25' for a '%'"
        ),
        ("GET /search#top", "4:14: error: the path of the request of 'search' must not hold a fragment"),
    ])
    func aMalformedConstantQueryIsAPositionedError(line: String, message: String) {
        let auth = Self.auth("      sort: { in: query, schema: { type: string } }")
            .replacingOccurrences(of: "request: GET /search", with: "request: \"\(line)\"")
        #expect(Fixture.printed(["auth.yaml": auth]) == ["Schema/auth.yaml:\(message)"])
    }

    @Test func aParameterNamedAsAConstantIsAnError() {
        let auth = Self.auth("      v: { in: query, schema: { type: string } }")
            .replacingOccurrences(of: "request: GET /search", with: "request: GET /search?v=1")
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:6:7: error: query parameter 'v' is already a constant of the request line '/search?v=1'"
            ])
    }

    @Test func sesameDiffShowsAChangedConstant() throws {
        let old = Fixture.validate([
            "auth.yaml": Self.auth("      sort: { in: query, schema: { type: string } }")
                .replacingOccurrences(of: "request: GET /search", with: "request: GET /search?v=1")
        ])
        let new = Fixture.validate([
            "auth.yaml": Self.auth("      sort: { in: query, schema: { type: string } }")
                .replacingOccurrences(of: "request: GET /search", with: "request: GET /search?v=2")
        ])
        let changes = SchemaDiff.compare(old: try #require(old.ir), new: try #require(new.ir))
        #expect(changes.map(\.message).contains { $0.contains("from GET /search?v=1 to GET /search?v=2") }, "\(changes)")
    }
}
