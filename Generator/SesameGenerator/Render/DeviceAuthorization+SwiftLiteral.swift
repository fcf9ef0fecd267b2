@_spi(Generated) import SesameDescription

extension DeviceAuthorization: SwiftLiteralArguments {
    /// The initialiser's arguments in its order, `openID` only when true: a device step that
    /// is not an OpenID Connect sign-in prints as it did before the flag existed, so SDKs that
    /// declare none do not change.
    var swiftLiteralArguments: [(label: String, value: Any)] {
        var arguments: [(label: String, value: Any)] = [
            ("request", request), ("parameters", parameters), ("defaultInterval", defaultInterval),
        ]
        if openID { arguments.append(("openID", true)) }
        return arguments
    }
}
