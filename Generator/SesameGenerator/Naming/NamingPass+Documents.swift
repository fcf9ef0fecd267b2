extension NamingPass {
    /// The Swift type of a schema a `$ref` names in a referenced document (or inside a model
    /// with an `$id`): the pointer's last token that is not an array index
    /// (`#/components/schemas/User` → `User`, `#/$defs/postal-address` → `PostalAddress`); for
    /// a document's root, its `title` or else the file's stem (`schemas/user.json` → `User`).
    /// Numbered while a declared model has the name (`User2`).
    static func documentModelName(pointer tokens: [String], title: String?, stem: String, isTaken: (String) -> Bool) -> String {
        let token = tokens.last(where: { !$0.isEmpty && Int($0) == nil && !["items", "additionalProperties"].contains($0) })
        let candidate = tokens.isEmpty ? (title ?? stem) : (token ?? stem)
        var names = UniqueNames(style: .numbered)
        return names.claim(SwiftName.typeName(candidate), isTakenElsewhere: isTaken)
    }
}
