import Foundation
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// A constant query the schema wrote in a request line (`POST /token?grant_type=password`):
/// sent as the generator encoded it, before the app's query parameters.
@Suite struct ConstantQueryTests {
    @Test func theConstantComesFirstAndIsNotEncodedAgain() throws {
        let description = RequestDescription(name: "search", method: .get, path: "/search/{id}?api-version=2024%2D05&scope=a%20b")
        let request = OperationRequest(description, pathParameters: ["id": "a/b"], query: [("q", "x&y z"), ("none", nil)])
        #expect(try request.resolvedPath() == "/search/a%2Fb?api-version=2024%2D05&scope=a%20b&q=x%26y%20z")
        #expect(
            try OperationRequest(description, pathParameters: ["id": "1"]).resolvedPath() == "/search/1?api-version=2024%2D05&scope=a%20b")
    }

    @Test func withoutAConstantThePathIsUnchanged() throws {
        let description = RequestDescription(name: "search", method: .get, path: "/search")
        #expect(try OperationRequest(description).resolvedPath() == "/search")
        #expect(try OperationRequest(description, query: [("q", "1")]).resolvedPath() == "/search?q=1")
    }

    @Test func theAuthorizationRequestKeepsItsConstantFirst() throws {
        let request = try AuthorizationRequest(
            step: BrowserAuthorization(
                request: RequestDescription(
                    name: "authorize", method: .get, path: "/oauth/authorize?audience=api%3Areports", server: .authorization),
                redirectURI: "com.example.app://oauth/callback"),
            baseURL: URL(string: "https://idp.test/tenant")!, clientID: "app", extra: [], state: "s", pkce: PKCE(), requested: nil)
        let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        #expect(components.percentEncodedPath == "/tenant/oauth/authorize")
        #expect(components.percentEncodedQuery?.hasPrefix("audience=api%3Areports&response_type=code&client_id=app&") == true)
        #expect(components.queryItems?.first { $0.name == "audience" }?.value == "api:reports")
    }
}
