@_spi(Generated) import SesameDescription

/// Renders `<SDK>Error`: one case per code of the error catalogue, and `unknown` for codes
/// this version of the SDK does not know.
struct ErrorRenderer {
    let sdk: SDKIR

    func render() -> String {
        var writer = SwiftRenderer.fileWriter(imports: ["Sesame"])
        writer.doc("An error the back-end reports. Each case carries the response: its status, code, message and category.")
        writer.block("public enum \(sdk.typeNames.error): Error, Hashable, Sendable, CustomStringConvertible") { body in
            for error in sdk.errors.errors {
                body.doc(error.description ?? "`\(error.code)`.")
                body.line("/// Status \(error.status), category \(error.category.rawValue).")
                body.line("case \(SwiftName.escaped(error.swiftName))(ServerErrorResponse)")
            }
            body.doc("A code the catalogue does not declare, or an error body with no code.")
            body.line("case unknown(ServerErrorResponse)")
            body.line()
            body.doc("The category of each known code, as the catalogue declares it.")
            let pairs = sdk.errors.errors.map { "\(SwiftName.stringLiteral($0.code)): .\(category($0.category))" }
            body.line("public static let categories: [String: ErrorCategory] = [\(pairs.isEmpty ? ":" : pairs.joined(separator: ", "))]")
            body.line()
            body.doc("Classifies an error response by its code.")
            body.block("public init(_ response: ServerErrorResponse)") { initializer in
                initializer.block("switch response.code") { cases in
                    for error in sdk.errors.errors {
                        cases.line("case \(SwiftName.stringLiteral(error.code))?: self = .\(SwiftName.escaped(error.swiftName))(response)")
                    }
                    cases.line("default: self = .unknown(response)")
                }
            }
            body.line()
            body.doc("The response the error came from.")
            body.block("public var response: ServerErrorResponse") { getter in
                getter.block("switch self") { cases in
                    let names = sdk.errors.errors.map { ".\(SwiftName.escaped($0.swiftName))(let response)" } + [".unknown(let response)"]
                    cases.line("case \(names.joined(separator: ", ")): return response")
                }
            }
            body.line()
            body.line("public var code: String? { response.code }")
            body.line("public var status: Int { response.status }")
            body.line("public var category: ErrorCategory { response.category }")
            body.line("public var description: String { response.description }")
        }
        return writer.text
    }

    private func category(_ category: ErrorCategory) -> String {
        switch category {
        case .credentialRejected: return "credentialRejected"
        case .reauthenticationRequired: return "reauthenticationRequired"
        case .transient: return "transient"
        case .client: return "client"
        case .server: return "server"
        }
    }
}
