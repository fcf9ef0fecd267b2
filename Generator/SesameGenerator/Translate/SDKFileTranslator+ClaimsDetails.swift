@_spi(Generated) import SesameDescription
import Yams

extension SDKFileTranslator {
    /// The word `credential.details` takes for "the ID token's claims are the details"
    /// (`details: idToken`): no operation may be named so.
    static let idTokenDetails = "idToken"

    /// `credential.userID` beside `details: idToken`: a required string property of the claims
    /// model, `sub` when sdk.yaml names none (OpenID Connect Core §2: the subject identifier).
    func translateClaimsUserID(_ entry: Entry?, claims: ModelRef?, reader: inout NodeReader) -> String {
        var field = "sub"
        if let entry, let named = reader.string(entry.value, "userID") { field = named }
        guard let claims, let name = claims.declaredName, let model = table.models[name], case .object(let object) = model.kind
        else { return field }
        let location = entry.map { reader.location(of: $0.value) }
        guard let property = object.properties.first(where: { $0.name == field }) else {
            reader.append(
                .error(
                    "the claims model '\(name)' has no property '\(field)' to be the user id\(entry == nil ? " (userID is sub by default)" : "")",
                    at: location ?? model.location))
            return field
        }
        guard property.required, !property.nullable, case .string = property.type else {
            reader.append(
                .error(
                    "the user id '\(field)' must be a required, non-null string property of the claims model '\(name)'",
                    at: location ?? property.location))
            return field
        }
        return field
    }
}
