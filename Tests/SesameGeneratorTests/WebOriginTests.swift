import Foundation
@testable import SesameGenerator
import Testing

/// The generator's one origin helper (discovery and sdk.yaml's `openID.endSession` both use it):
/// IPv6 hosts in brackets, default ports left out, case folded.
@Suite struct WebOriginTests {
    @Test(arguments: [
        ("https://IDP.Example.com/oauth", "https://idp.example.com"),
        ("https://idp.example.com:443/logout", "https://idp.example.com"),
        ("http://127.0.0.1:80/", "http://127.0.0.1"),
        ("https://idp.example.com:8443/", "https://idp.example.com:8443"),
        ("http://[::1]:8081/logout", "http://[::1]:8081"),
        ("https://[2001:DB8::1]:443/", "https://[2001:db8::1]"),
    ])
    func origins(url: String, origin: String) throws {
        #expect(WebOrigin.of(try #require(URL(string: url))) == origin)
    }

    @Test func secureIsHTTPSOrLoopback() throws {
        for (url, secure) in [
            ("https://idp.example.com", true), ("http://127.0.0.1:8081", true), ("http://[::1]:8081", true),
            ("http://localhost", true), ("http://idp.example.com", false), ("ftp://idp.example.com", false),
        ] {
            #expect(WebOrigin.isSecure(try #require(URL(string: url))) == secure, "\(url)")
        }
    }
}
