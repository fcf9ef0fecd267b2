import Foundation
@_spi(Generated) import SesameDescription

/// The runtime's descriptions of a translated schema: what `<SDK>Schema` carries, read
/// from the values the IR embeds and printed by ``SwiftLiteral``.
extension SDKIR {
    /// The description of the whole back-end.
    var runtimeDescription: SDKDescription {
        SDKDescription(
            name: name, baseURL: Self.url(baseURL), authorizationBaseURL: authorizationServerURL.map(Self.url),
            credential: credential.value,
            errors: ErrorCatalogue(
                codeField: errors.codeField, messageField: errors.messageField,
                codes: Dictionary(errors.errors.map { ($0.code, $0.category) }, uniquingKeysWith: { first, _ in first })),
            events: EventCatalogue(
                stream: events.stream?.value, invalidating: Set(events.events.filter { $0.effect == .invalidate }.map(\.wireName))),
            lifecycle: lifecycle.value,
            authorizationIssuer: authorizationIssuer, openID: openID?.value)
    }

    private static func url(_ text: String) -> URL {
        // The translator refused a base URL that is not one.
        URL(string: text) ?? URL(fileURLWithPath: "/")
    }
}

extension DurationIR {
    var duration: Duration { .milliseconds(milliseconds) }
}
