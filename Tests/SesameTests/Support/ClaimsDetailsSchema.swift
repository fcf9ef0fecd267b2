import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// The claims an ID token of ``ClaimsDetailsSchema`` carries: the user's details.
struct TestClaims: Codable, Hashable, Sendable {
    var sub: String
    var name: String?
}

/// ``TwoServerSchema`` whose user's details are the ID token's claims (sdk.yaml's
/// `details: idToken`, `userID: sub`): no details operation, an OpenID Connect browser
/// method. Its ID tokens are `header.<base64url JSON claims>.signature`, read as a generated
/// SDK reads a validated one (the signature is the test validator's business).
enum ClaimsDetailsSchema: SDKSchema {
    typealias Details = TestClaims
    typealias ServerError = TestServerError
    typealias Event = TestEvent

    static let browser: AuthenticationMethodDescription = {
        var method = TwoServerSchema.browser
        if var browser = method.steps[0].browser {
            browser.openID = true
            method.steps[0].kind = .browser(browser)
        }
        return method
    }()

    /// The browser method, with its arguments.
    static let method = TwoServerMethod(methodDescription: browser, arguments: ["scope": .string("openid")])

    static var description: SDKDescription {
        var description = TwoServerSchema.description
        description.credential.details = nil
        description.credential.userIDField = "sub"
        return description
    }
    static func userID(of details: TestClaims) -> String { details.sub }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }

    static func details(fromValidatedIDToken idToken: String) throws -> TestClaims {
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        var payload = parts.count == 3 ? String(parts[1]) : ""
        payload = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload) else {
            throw SesameError.decoding(operation: "id_token", reason: "the ID token is not a JWT whose payload is a JSON object")
        }
        do {
            return try JSONDecoder().decode(TestClaims.self, from: data)
        } catch {
            throw SesameError.decoding(operation: "id_token", reason: "$.sub: required claim is missing")
        }
    }

    /// An ID token whose payload is `claims`.
    static func idToken(_ claims: [String: String]) -> String {
        let json = try! JSONSerialization.data(withJSONObject: claims, options: .sortedKeys)
        let payload = json.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "eyJhbGciOiJub25lIn0.\(payload).signature"
    }
}
