import Foundation
@_spi(Generated) import SesameDescription
@testable import SesameGenerator
import Testing

/// sdk.yaml's `openID.endSession` and `openID.postLogoutRedirectURI` (issue 26, RP-Initiated
/// Logout): what reaches the runtime and what is generated, and each mistake at its line and
/// column.
@Suite struct OpenIDEndSessionSchemaTests {
    static func sdk(_ block: String) -> String { OpenIDSchemaTests.sdk(openID: block) }

    @Test func endSessionReachesTheRuntime() throws {
        let files = [
            "sdk.yaml": Self.sdk("{ keys: /oauth/jwks, endSession: /oauth/logout, postLogoutRedirectURI: com.example.app://signed-out }"),
            "auth.yaml": OpenIDSchemaTests.openIDAuth,
        ]
        let validation = Fixture.validate(files)
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let openID = try #require(validation.ir?.runtimeDescription.openID)
        #expect(openID.endSession == "/oauth/logout")
        #expect(openID.postLogoutRedirectURI == URL(string: "com.example.app://signed-out"))
        // A path follows the authorization server's base URL, path included.
        #expect(
            openID.endSessionURL(authorizationServer: URL(string: "https://idp.example.com/base/")!)
                == URL(string: "https://idp.example.com/base/oauth/logout"))
        let schema = Fixture.file("TestSDKSchema.swift", in: Fixture.generate(files))
        #expect(schema.contains(#"endSession: "/oauth/logout","#))
        #expect(schema.contains(#"postLogoutRedirectURI: URL(string: "com.example.app://signed-out")!"#))
        // An absolute URL on the issuer's origin is kept as it is, query included.
        let absolute = try #require(
            Fixture.validate([
                "sdk.yaml": Self.sdk(
                    "{ keys: /oauth/jwks, endSession: \"https://idp.example.com/v2/logout?federated\", postLogoutRedirectURI: com.example.app://out }"
                )
            ]).ir)
        #expect(
            absolute.runtimeDescription.openID?.endSessionURL(authorizationServer: URL(string: "https://other.example.com")!)
                == URL(string: "https://idp.example.com/v2/logout?federated"))
        // The provider's origin with its default port written out, and an IPv6 loopback
        // provider's own origin: the same origin, accepted.
        for (issuer, endSession) in [
            (OpenIDSchemaTests.issuer, "https://idp.example.com:443/logout"),
            (#"authorizationServer: { baseURL: "http://[::1]:8081", issuer: "http://[::1]:8081" }"#, "http://[::1]:8081/logout"),
        ] {
            let validation = Fixture.validate([
                "sdk.yaml": OpenIDSchemaTests.sdk(
                    openID: "{ keys: /oauth/jwks, endSession: \"\(endSession)\", postLogoutRedirectURI: com.example.app://out }",
                    issuer: issuer)
            ])
            #expect(validation.diagnostics.isEmpty, "\(endSession): \(validation.diagnostics)")
            #expect(validation.ir?.runtimeDescription.openID?.endSession == endSession)
        }
        // Without endSession, nothing is printed: SDKs that declare none do not change.
        let plain = Fixture.file(
            "TestSDKSchema.swift",
            in: Fixture.generate(["sdk.yaml": Self.sdk("{ keys: /oauth/jwks }"), "auth.yaml": OpenIDSchemaTests.openIDAuth]))
        #expect(!plain.contains("endSession"))
        #expect(!plain.contains("postLogoutRedirectURI"))
    }

    @Test func endSessionMistakesArePositioned() {
        // Another origin than the provider's would receive the ID token: refused.
        #expect(
            Fixture.printed([
                "sdk.yaml": Self.sdk(
                    "{ keys: /jwks, endSession: \"https://evil.example.com/logout\", postLogoutRedirectURI: com.example.app://out }")
            ]) == [
                "Schema/sdk.yaml:4:36: error: endSession must be a path on the authorization server (/oauth/logout) or an absolute https URL on the provider's origin (https://idp.example.com), without a fragment: the ID token goes there as id_token_hint"
            ])
        // Plain http outside loopback, a fragment, a relative path: refused at the value.
        for value in ["\"http://idp.example.com/logout\"", "\"/logout#top\"", "logout"] {
            #expect(
                Fixture.printed([
                    "sdk.yaml": Self.sdk("{ keys: /jwks, endSession: \(value), postLogoutRedirectURI: com.example.app://out }")
                ])
                .map { $0.prefix(54) } == ["Schema/sdk.yaml:4:36: error: endSession must be a path"], "\(value)")
        }
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk("{ keys: /jwks, endSession: /logout, postLogoutRedirectURI: \"signed-out?x=1\" }")]) == [
                "Schema/sdk.yaml:4:68: error: postLogoutRedirectURI must be an absolute URL without a query or fragment, such as 'com.example.app://signed-out'"
            ])
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk("{ keys: /jwks, postLogoutRedirectURI: com.example.app://out }")]) == [
                "Schema/sdk.yaml:4:24: error: postLogoutRedirectURI is sent to the provider's end-session endpoint: add endSession: /oauth/logout (its end_session_endpoint)"
            ])
        // The provider's origin as WebOrigin says it: an IPv6 host in brackets.
        let ipv6 = #"authorizationServer: { baseURL: "http://[::1]:8081", issuer: "http://[::1]:8081" }"#
        #expect(
            Fixture.printed([
                "sdk.yaml": OpenIDSchemaTests.sdk(
                    openID: "{ keys: /jwks, endSession: \"http://[::1]:9999/logout\", postLogoutRedirectURI: com.example.app://out }",
                    issuer: ipv6)
            ]) == [
                "Schema/sdk.yaml:4:36: error: endSession must be a path on the authorization server (/oauth/logout) or an absolute https URL on the provider's origin (http://[::1]:8081), without a fragment: the ID token goes there as id_token_hint"
            ])
        // endSession alone is valid, with a warning: the app must supply the post-logout URI.
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk("{ keys: /jwks, endSession: /logout }")]) == [
                "Schema/sdk.yaml:4:24: warning: endSession without postLogoutRedirectURI: sign-out ends the provider's session only when the app sets the configuration's postLogoutRedirectURI (add postLogoutRedirectURI: com.example.app://signed-out)"
            ])
    }
}
