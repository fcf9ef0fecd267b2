import Foundation
@_spi(Generated) import ReferenceSDK
import Testing
@_spi(Generated) import SesameDescription

/// `ReferenceSDKError`, generated from Schema/errors.yaml.
@Suite struct GeneratedErrorTests {
    /// Every code of errors.yaml: its status, its category, and a test for its case.
    struct Entry: Sendable, CustomTestStringConvertible {
        let code: String
        let status: Int
        let category: ErrorCategory
        let matches: @Sendable (ReferenceSDKError) -> Bool
        var testDescription: String { code }
    }

    static let catalogue: [Entry] = [
        Entry(code: "invalid_request", status: 400, category: .client) { if case .invalidRequest = $0 { true } else { false } },
        Entry(code: "invalid_client", status: 401, category: .client) { if case .invalidClient = $0 { true } else { false } },
        Entry(code: "invalid_grant", status: 400, category: .credentialRejected) { if case .invalidGrant = $0 { true } else { false } },
        Entry(code: "unauthorized_client", status: 400, category: .client) { if case .unauthorizedClient = $0 { true } else { false } },
        Entry(code: "unsupported_grant_type", status: 400, category: .client) {
            if case .unsupportedGrantType = $0 { true } else { false }
        },
        Entry(code: "invalid_scope", status: 400, category: .client) { if case .invalidScope = $0 { true } else { false } },
        Entry(code: "invalid_token", status: 401, category: .credentialRejected) { if case .invalidToken = $0 { true } else { false } },
        Entry(code: "invalid_code", status: 400, category: .client) { if case .invalidCode = $0 { true } else { false } },
        Entry(code: "token_too_old", status: 403, category: .reauthenticationRequired) {
            if case .tokenTooOld = $0 { true } else { false }
        },
        Entry(code: "not_found", status: 404, category: .client) { if case .notFound = $0 { true } else { false } },
        Entry(code: "rate_limited", status: 429, category: .transient) { if case .rateLimited = $0 { true } else { false } },
        Entry(code: "unavailable", status: 503, category: .transient) { if case .unavailable = $0 { true } else { false } },
        Entry(code: "internal", status: 500, category: .server) { if case .internal = $0 { true } else { false } },
        // The authorization endpoint's, typed from the redirect (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.6).
        Entry(code: "access_denied", status: 403, category: .client) { if case .accessDenied = $0 { true } else { false } },
        Entry(code: "unsupported_response_type", status: 400, category: .client) {
            if case .unsupportedResponseType = $0 { true } else { false }
        },
        Entry(code: "server_error", status: 500, category: .server) { if case .serverError = $0 { true } else { false } },
        Entry(code: "temporarily_unavailable", status: 503, category: .transient) {
            if case .temporarilyUnavailable = $0 { true } else { false }
        },
        Entry(code: "login_required", status: 400, category: .client) { if case .loginRequired = $0 { true } else { false } },
        Entry(code: "consent_required", status: 400, category: .client) { if case .consentRequired = $0 { true } else { false } },
        Entry(code: "interaction_required", status: 400, category: .client) {
            if case .interactionRequired = $0 { true } else { false }
        },
        Entry(code: "account_selection_required", status: 400, category: .client) {
            if case .accountSelectionRequired = $0 { true } else { false }
        },
    ]

    @Test(arguments: catalogue)
    func eachCodeMapsToItsCaseAndKeepsTheResponse(_ entry: Entry) {
        let response = ServerErrorResponse(
            status: entry.status, code: entry.code, message: "details for \(entry.code)", category: entry.category)
        let error = ReferenceSDKError(response)
        #expect(entry.matches(error), "\(entry.code) gave \(error)")
        #expect(error.response == response)
        #expect(error.code == entry.code)
        #expect(error.status == entry.status)
        #expect(error.category == entry.category)
        #expect(error.description == "HTTP \(entry.status) \(entry.code): details for \(entry.code)")
        #expect(ReferenceSDKSchema.serverError(response) == error)
    }

    @Test func theCatalogueDeclaresEachCodesCategory() {
        let expected = Dictionary(uniqueKeysWithValues: Self.catalogue.map { ($0.code, $0.category) })
        #expect(ReferenceSDKError.categories == expected)
        #expect(ReferenceSDKSchema.description.errors.codes == expected)
        #expect(ReferenceSDKSchema.description.errors.codeField == "error")
        #expect(ReferenceSDKSchema.description.errors.messageField == "error_description")
    }

    @Test func anUnknownCodeIsKeptInTheUnknownCase() {
        let response = ServerErrorResponse(status: 418, code: "teapot", message: "short and stout", category: .client)
        let error = ReferenceSDKError(response)
        #expect(error == .unknown(response))
        #expect(error.code == "teapot")
        #expect(error.status == 418)
        #expect(error.description == "HTTP 418 teapot: short and stout")
    }

    @Test func aResponseWithoutACodeIsUnknown() {
        let response = ServerErrorResponse(status: 502, code: nil, message: nil, category: .transient)
        let error = ReferenceSDKError(response)
        #expect(error == .unknown(response))
        #expect(error.code == nil)
        #expect(error.category == .transient)
        #expect(error.description == "HTTP 502")
    }

    @Test func codesAreMatchedExactly() {
        for code in ["Invalid_Grant", "invalid_grant ", "invalidGrant"] {
            let response = ServerErrorResponse(status: 400, code: code, message: nil, category: .client)
            #expect(ReferenceSDKError(response) == .unknown(response), "\(code)")
        }
    }

    @Test func theCaseFollowsTheCodeNotTheStatus() {
        // A back-end may send a known code with another status; the code decides.
        let response = ServerErrorResponse(status: 401, code: "invalid_grant", message: nil, category: .credentialRejected)
        #expect(ReferenceSDKError(response) == .invalidGrant(response))
    }
}
