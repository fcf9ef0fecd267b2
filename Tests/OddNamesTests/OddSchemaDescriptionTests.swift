import Foundation
import OddNamesSDK
@_spi(Generated) import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// `OddNamesSDKSchema.description`, what the runtime reads: every field name, header
/// template, rejection rule and refresh field keeps the schema's text exactly.
@Suite struct OddSchemaDescriptionTests {
    @Test func theCredentialNamesTheTokenFieldsExactly() {
        let credential = OddNamesSDKSchema.description.credential
        #expect(credential.accessTokenField == "access\"token")
        #expect(credential.refreshTokenField == "refresh\\token")
        #expect(credential.expiresInField == "expires\nin")
        #expect(credential.userIDField == "user\"id")
        #expect(credential.format == .interpolation([.text("Odd \""), .variable(.accessToken), .text(#"" \(x) */"#)]))
        #expect(credential.rejection == RejectionRule(status: 401, wwwAuthenticateError: #"invalid "token" \"#, bodyCode: "rejected */"))
    }

    @Test func theRefreshRequestKeepsItsOddFieldNamesAndValues() throws {
        let refresh = try #require(OddNamesSDKSchema.description.credential.refresh)
        #expect(refresh.request.path == #"/oauth/"token"\n"#)
        #expect(refresh.fields.map(\.name) == ["grant\"type", "refresh token */", "#if"])
        #expect(
            refresh.fields.map(\.value) == [.literal(.string("refresh\\token")), .variable(.refreshToken), .literal(.string(#"""""#))])
    }

    @Test func theUserIDIsReadFromThePropertyWithTheQuotedKey() {
        #expect(OddNamesSDKSchema.userID(of: Odd(userId: "the user", quoteD: "q")) == "the user")
    }

    @Test func lifecycleOperationsNamedWithKeywordsAreTheRightRequests() {
        let lifecycle = OddNamesSDKSchema.description.lifecycle
        #expect(lifecycle.signOut?.name == "self")
        #expect(lifecycle.detachIdentity?.name == "default")
        #expect(lifecycle.destroyAccount?.name == "init")
    }
}
