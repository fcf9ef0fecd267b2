import Foundation
@_spi(Generated) import SesameDescription
import Yams

extension SDKFileTranslator {
    /// sdk.yaml's `openID:`: where the provider's keys are (a path on the authorization server
    /// or an absolute https URL), the algorithms (each one the validator accepts; none and HMAC
    /// are not), the clock skew and the claims' model. The validator compares `iss` with the
    /// authorization server's issuer, so `openID` without `authorizationServer.issuer` is an
    /// error at its key.
    func translateOpenID(_ entry: Entry, issuer: AuthorizationServerIssuer?, reader: inout NodeReader) -> OpenIDIR? {
        guard let items = reader.mapping(entry.value, "openID", grammar: Grammar.openID, missingAt: entry.keyNode) else { return nil }
        if issuer == nil {
            reader.error(
                "openID validates the ID token's iss against the authorization server's issuer: add authorizationServer: { baseURL: https://…, issuer: https://… }",
                at: entry.keyNode)
        }
        var keys: String?
        if let keysEntry = items["keys"], let text = reader.string(keysEntry.value, "keys") {
            if text.hasPrefix("/"), !text.hasPrefix("//"), URL(string: "https://host" + text) != nil {
                keys = text
            } else if let url = URL(string: text), url.scheme?.lowercased() == "https", url.host != nil, url.fragment == nil {
                keys = text
            } else {
                reader.error(
                    "keys must be a path on the authorization server (/oauth/jwks) or an absolute https URL (the provider's jwks_uri)",
                    at: keysEntry.value)
            }
        }
        var algorithms: Set<String>?
        if let algorithmsEntry = items["algorithms"], let nodes = reader.sequence(algorithmsEntry.value, "algorithms") {
            var accepted: Set<String> = []
            for node in nodes {
                guard let name = reader.string(node, "an algorithm") else { continue }
                if OpenIDDescription.signingAlgorithms.contains(name) {
                    if !accepted.insert(name).inserted { reader.error("algorithm '\(name)' is listed twice", at: node) }
                } else {
                    let refused = name.lowercased() == "none" || name.uppercased().hasPrefix("HS")
                    let hint = Suggestion.closest(to: name, in: OpenIDDescription.signingAlgorithms.sorted()).map {
                        "; did you mean '\($0)'?"
                    }
                    reader.error(
                        refused
                            ? "algorithm '\(name)' is never accepted for ID tokens: none and HMAC cannot be verified by a public client"
                            : "unknown algorithm '\(name)'; the accepted ones are \(OpenIDDescription.signingAlgorithms.sorted().joined(separator: ", "))\(hint ?? "")",
                        at: node)
                }
            }
            if nodes.isEmpty {
                reader.error("algorithms needs at least one algorithm (or leave it out for the default)", at: algorithmsEntry.value)
            }
            algorithms = accepted.isEmpty ? nil : accepted
        }
        let clockSkew =
            items["clockSkew"].flatMap { reader.duration($0.value, "clockSkew") }?.duration ?? OpenIDDescription.defaultClockSkew
        var claims: ModelRef?
        if let claimsEntry = items["claims"], let name = reader.string(claimsEntry.value, "claims") {
            if let reference = table.reference(to: name) {
                claims = reference
            } else {
                table.reportUnknownModel(name, at: claimsEntry.value, reader: &reader)
            }
        }
        guard let keys, issuer != nil else { return nil }
        return OpenIDIR(
            value: OpenIDDescription(keys: keys, algorithms: algorithms, clockSkew: clockSkew), claims: claims,
            location: reader.location(of: entry.keyNode))
    }
}
