import Foundation
@_spi(Generated) import SesameDescription

/// The runtime's descriptions of a translated schema: what `<SDK>Schema` carries, built as
/// values from the IR and printed by ``SwiftLiteral``.
extension SDKIR {
    /// The description of the whole back-end.
    var runtimeDescription: SDKDescription {
        SDKDescription(
            name: name, baseURL: Self.url(baseURL), authorizationBaseURL: authorizationServerURL.map(Self.url),
            credential: CredentialDescription(
                accessTokenField: credential.accessTokenField, refreshTokenField: credential.refreshTokenField,
                expiresInField: credential.expiresInField, header: credential.header, format: credential.format,
                refresh: credential.refresh?.value,
                rejection: credential.rejection,
                details: credential.detailsOperation.flatMap(operation)?.runtimeDescription
                    ?? RequestDescription(name: "", method: .get, path: "/"),
                userIDField: credential.userIDField),
            errors: ErrorCatalogue(
                codeField: errors.codeField, messageField: errors.messageField,
                codes: Dictionary(errors.errors.map { ($0.code, $0.category) }, uniquingKeysWith: { first, _ in first })),
            events: EventCatalogue(
                stream: events.stream?.description(name: "events", authenticated: true, encoding: .json, clientAuthentication: .none),
                invalidating: Set(events.events.filter { $0.effect == .invalidate }.map(\.wireName))),
            lifecycle: LifecycleDescription(
                signOut: lifecycle.signOut.flatMap(operation)?.runtimeDescription,
                detachIdentity: lifecycle.detachIdentity.flatMap(operation)?.runtimeDescription,
                destroyAccount: lifecycle.destroyAccount.flatMap(operation)?.runtimeDescription,
                revocation: lifecycle.revocation?.value),
            authorizationIssuer: authorizationIssuer)
    }

    private static func url(_ text: String) -> URL {
        // The translator refused a base URL that is not one.
        URL(string: text) ?? URL(fileURLWithPath: "/")
    }
}

extension OperationIR {
    /// The request the generated `Requests.<operation>` declares.
    var runtimeDescription: RequestDescription {
        request.description(
            name: name, authenticated: authenticated, encoding: encoding, clientAuthentication: .none,
            freshAuthentication: freshAuthentication?.duration)
    }
}

extension MethodIR {
    /// The description the generated `Methods.<method>` declares.
    var runtimeDescription: AuthenticationMethodDescription {
        AuthenticationMethodDescription(
            name: name,
            steps: steps.map { step in
                AuthenticationStepDescription(
                    name: step.name, needs: step.needs.map(\.name),
                    kind: step.browser.map { browser in
                        .browser(
                            BrowserAuthorization(
                                request: browser.request.description(
                                    name: "\(name).\(step.name).authorize", authenticated: false, encoding: .json,
                                    clientAuthentication: .none),
                                redirectURI: browser.redirectURI, parameters: browser.parameters.map(\.field)))
                    } ?? step.device.map { device in
                        .deviceAuthorization(
                            DeviceAuthorization(
                                request: device.request.description(
                                    name: "\(name).\(step.name).deviceAuthorization", authenticated: false, encoding: .form,
                                    clientAuthentication: step.clientAuthentication),
                                parameters: device.parameters.map(\.field)))
                    } ?? .request,
                    request: step.request.description(
                        name: "\(name).\(step.name)", authenticated: false, encoding: step.encoding,
                        clientAuthentication: step.clientAuthentication),
                    body: step.body.map(\.field))
            })
    }
}

extension RequestLineIR {
    /// The request this line declares, with what its kind adds.
    func description(
        name: String, authenticated: Bool, encoding: BodyEncoding, clientAuthentication: ClientAuthentication,
        freshAuthentication: Duration? = nil
    ) -> RequestDescription {
        RequestDescription(
            name: name, method: method, path: path, authenticated: authenticated, encoding: encoding,
            clientAuthentication: clientAuthentication, freshAuthentication: freshAuthentication, server: server)
    }
}

extension DurationIR {
    var duration: Duration { .milliseconds(milliseconds) }
}
