@testable import ReferenceServer
import Testing

/// The `application/x-www-form-urlencoded` parser of the token endpoint.
@Suite struct FormURLEncodingTests {
    @Test func decodesPlusAndPercentEscapes() throws {
        let form = try FormURLEncoding.parse("a=b+c&d=%2B%26%3D%C3%A9&e=&f")
        #expect(form == ["a": "b c", "d": "+&=é"])
    }

    @Test func keepsMalformedEscapes() {
        #expect(FormURLEncoding.decode("100%") == "100%")
        #expect(FormURLEncoding.decode("%zz") == "%zz")
    }

    @Test func rejectsRepeatedNames() {
        #expect(throws: FormURLEncoding.DuplicateParameter.self) { try FormURLEncoding.parse("a=1&a=2") }
    }

    @Test func b64TokenGrammar() {
        #expect(RequestDecoding.isB64Token("abc-._~+/=="))
        #expect(!RequestDecoding.isB64Token("=="))
        #expect(!RequestDecoding.isB64Token("a b"))
        #expect(!RequestDecoding.isB64Token(""))
    }
}
