@_spi(Generated) import SesameDescription

extension CredentialDescription: SwiftLiteralArguments {
    /// The initialiser's arguments in its order: a bearer binding as its `header` and
    /// `format`, so that the generated code of a schema reads as the schema does.
    var swiftLiteralArguments: [(label: String, value: Any)] {
        var list = SwiftLiteralArgumentList()
        list.add("accessTokenField", accessTokenField)
        list.add("refreshTokenField", refreshTokenField)
        list.add("expiresInField", expiresInField)
        switch binding {
        case .bearer(let header, let format):
            list.add("header", header)
            list.add("format", format)
        case .dpop:
            list.add("binding", binding)
        }
        list.add("refresh", refresh)
        list.add("rejection", rejection)
        list.add("details", details)
        list.add("userIDField", userIDField)
        return list.arguments
    }
}
