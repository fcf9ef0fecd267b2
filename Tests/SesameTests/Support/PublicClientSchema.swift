import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// ``TwoServerSchema`` for a public client (RFC 8252 §8.4): its token, refresh and
/// revocation requests declare `clientAuthentication: none`.
enum PublicClientSchema: SDKSchema {
    typealias Details = TestDetails
    typealias ServerError = TestServerError
    typealias Event = TestEvent

    static func publicRequest(_ request: RequestDescription) -> RequestDescription {
        var request = request
        request.clientAuthentication = .none
        return request
    }

    static let browser: AuthenticationMethodDescription = {
        var method = TwoServerSchema.browser
        method.steps[0].request = publicRequest(method.steps[0].request)
        return method
    }()

    /// The browser method, with its arguments.
    static let method = TwoServerMethod(methodDescription: browser, arguments: ["scope": .string("profile")])

    static var description: SDKDescription {
        var description = TwoServerSchema.description
        description.credential.refresh?.request = publicRequest(TwoServerSchema.token)
        description.lifecycle.revocation?.request = publicRequest(TwoServerSchema.revoke.request)
        return description
    }
    static func userID(of details: TestDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
}
