/// The names of model types: declared models, schemas a `$ref` points into, and the types
/// hoisted from the inline schemas of auth.yaml and events.yaml, and the hints of the types
/// nested in a model. The rules are here; `ModelTypeNames` applies them and makes the names
/// unique, and the translators ask it for each name as they create the model (references
/// carry the Swift path at once). The types nested in a model are named by `NestedTypeNames`.
extension NamingPass {
    /// The Swift type of a model declared under `key` in a models file.
    static func declaredModelName(_ key: String) -> String {
        SwiftName.typeName(key)
    }

    /// The Swift type of a `$defs` entry whose key would give another declaration's type:
    /// its owner's name and its key (`A`, `item` → `AItem`), numbered (`AItem2`) while
    /// `isTaken` says a model has it.
    static func definitionName(_ key: String, owner: String, isTaken: (String) -> Bool) -> String {
        var names = UniqueNames(style: .numbered)
        return names.claim(SwiftName.typeName(owner + " " + key), isTakenElsewhere: isTaken)
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

    // MARK: Hints of nested types

    /// The hint of the type nested for a property's inline schema: `shipping_address` →
    /// `ShippingAddress` (made unique by `ModelTypeNames.nestedName`).
    static func propertyTypeHint(_ key: String) -> String {
        SwiftName.upperCamel(key)
    }

    /// The hint of the type an array's inline `items` schema needs: `Tags` → `TagsItem`.
    static func itemTypeHint(of hint: String) -> String {
        hint + "Item"
    }

    /// The hint of the type a map's inline `additionalProperties` schema needs: `Labels` →
    /// `LabelsValue`.
    static func valueTypeHint(of hint: String) -> String {
        hint + "Value"
    }

    /// The hint of the type an object's inline `additionalProperties` or
    /// `unevaluatedProperties` schema needs.
    static let additionalPropertyTypeHint = "AdditionalProperty"

    /// The hint of the types a model that is an alias (an array, a map, a scalar) needs:
    /// `Value`, and `ValueItem` for its items.
    static let aliasTypeHint = "Value"

    /// The hint of the type the inline schema of the `index`th (from 0) variant of a `oneOf` or
    /// `anyOf` needs: `Option1`, `Option2`…
    static func optionTypeHint(_ index: Int) -> String {
        "Option\(index + 1)"
    }

    // MARK: Store tables

    /// The Swift type of a store table's records: `user_notes` → `UserNotes`, and `Record`
    /// appended to a keyword (`Type`, `Self`, `Any`, `Protocol`), which cannot name a nested
    /// type that code outside can name (`Persistence.Type` is the metatype). Two tables of one
    /// version that give one type are an error the store translator reports.
    static func storeTableTypeName(_ key: String) -> String {
        let swiftName = SwiftName.upperCamel(key)
        return SwiftName.keywords.contains(swiftName) ? swiftName + "Record" : swiftName
    }
}
