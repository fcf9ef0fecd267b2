/// The names of model types: declared models, schemas a `$ref` points into, and the types
/// hoisted from the inline schemas of auth.yaml and events.yaml. The translators ask for them
/// as they create the models (references carry the Swift path at once); the rules are here.
/// The types nested in a model are named by `NestedTypeNames`.
extension NamingPass {
    /// The Swift type of a model declared under `key` in a models file.
    static func declaredModelName(_ key: String) -> String {
        SwiftName.typeName(key)
    }

    /// The Swift type of a schema that a `$ref` points into (`#/User/properties/address` →
    /// `UserPropertiesAddress`), numbered (`…2`, `…3`) while `isTaken` says a model has it.
    static func pointedModelName(_ tokens: [String], isTaken: (String) -> Bool) -> String {
        var names = UniqueNames(style: .numbered)
        return names.claim(SwiftName.typeName(tokens.joined(separator: " ")), isTakenElsewhere: isTaken)
    }

    /// The Swift type hoisted from an inline schema of `key` in the role `role` (`signIn`,
    /// `Body` → `SignInBody`; `signedIn`, `Payload` → `SignedInPayload`).
    static func hoistedTypeName(_ key: String, role: String) -> String {
        SwiftName.upperCamel(key) + role
    }

    /// The Swift type hoisted from the inline schema of parameter `key` of `owner` (an
    /// operation or a method): `signIn`, `channel` → `SignInChannel`.
    static func hoistedTypeName(owner: String, key: String) -> String {
        SwiftName.upperCamel(owner) + SwiftName.upperCamel(key)
    }

    /// `name`, with `_` appended while `isTaken` says a declared or an earlier hoisted model
    /// has it. Hoisted names are few (one per operation body, response or event payload), so
    /// the repeated `_` that members no longer use (see `UniqueNames`) stays here, and the
    /// generated names with it.
    static func uniqueHoistedName(_ name: String, isTaken: (String) -> Bool) -> String {
        var name = name
        while isTaken(name) { name += "_" }
        return name
    }
}
