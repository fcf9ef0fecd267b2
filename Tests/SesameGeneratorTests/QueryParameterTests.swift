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
}
