/// Renders `<SDK>Event`: one case per event of the catalogue, and `unknown` for events
/// this version of the SDK does not know (or whose payload does not decode).
struct EventRenderer {
    let sdk: SDKIR
    let types: TypeRendering

    func render() -> String {
        var writer = SwiftRenderer.fileWriter(imports: ["Foundation", "Sesame"])
        writer.doc("An event the back-end pushes.")
        writer.block("public enum \(sdk.typeNames.event): ServerEvent, CustomStringConvertible") { body in
            for event in sdk.events.events {
                body.doc(event.description)
                if event.effect == .invalidate { body.line("/// Receiving it makes the session invalid.") }
                body.line("case \(SwiftName.escaped(event.swiftName))\(event.payload.map { "(\(types.swift($0)))" } ?? "")")
            }
            body.doc("An event this version of the SDK does not know, or whose payload did not decode: never dropped.")
            body.line("case unknown(wireName: String, data: Data)")
            body.line()
            body.block("public init(wireName: String, data: Data)") { initializer in
                initializer.block("switch wireName") { cases in
                    for event in sdk.events.events {
                        cases.line("case \(SwiftName.stringLiteral(event.wireName)):")
                        cases.indented { inner in
                            if let payload = event.payload {
                                let wire = types.wire(payload) ?? types.swift(payload)
                                inner.block("if let payload = try? JSONDecoder().decode(\(wire).self, from: data)") { decoded in
                                    decoded.line("self = .\(SwiftName.escaped(event.swiftName))(\(types.fromWire("payload", payload)))")
                                    decoded.line("return")
                                }
                            } else {
                                inner.line("self = .\(SwiftName.escaped(event.swiftName))")
                                inner.line("return")
                            }
                        }
                    }
                    cases.line("default:")
                    cases.indented { inner in inner.line("break") }
                }
                initializer.line("self = .unknown(wireName: wireName, data: data)")
            }
            body.line()
            body.block("public var wireName: String") { getter in
                getter.block("switch self") { cases in
                    for event in sdk.events.events {
                        cases.line("case .\(SwiftName.escaped(event.swiftName)): return \(SwiftName.stringLiteral(event.wireName))")
                    }
                    cases.line("case .unknown(let wireName, _): return wireName")
                }
            }
            body.line()
            body.line("public var description: String { wireName }")
        }
        return writer.text
    }
}
