/// Renders the authentication methods: `SingleStepMethod`, `MultiStepMethod` and the
/// `AuthenticationInput` values the app supplies between steps. Descriptions and mirrors
/// never show an argument, so a password cannot reach a log.
struct MethodRenderer {
    let sdk: SDKIR
    let types: TypeRendering

    func render() -> String {
        var writer = SwiftRenderer.fileWriter(imports: ["Foundation", "Sesame"])
        let single = sdk.methods.filter { !$0.isMultiStep }
        let multi = sdk.methods.filter(\.isMultiStep)
        renderMethods(
            "SingleStepMethod", protocolName: "SingleStepAuthenticationMethod", methods: single,
            doc: "The authentication methods that run to the end without input from the app between steps.", into: &writer)
        writer.line()
        renderMethods(
            "MultiStepMethod", protocolName: "MultiStepAuthenticationMethod", methods: multi,
            doc: "The authentication methods that stop between steps for values the app supplies (`AuthenticationInput`).", into: &writer)
        writer.line()
        renderInputs(multi, into: &writer)
        return writer.text
    }

    private func parameterList(_ parameters: [ParameterIR]) -> String {
        parameters.map { parameter in
            var text = "\(SwiftName.escaped(parameter.swiftName)): \(types.swift(parameter.type))"
            if !parameter.required, parameter.defaultValue == nil { text += "? = nil" }
            if let value = parameter.defaultValue, let literal = types.literal(value, parameter.type) { text += " = \(literal)" }
            return text
        }.joined(separator: ", ")
    }

    private func isOptional(_ parameter: ParameterIR) -> Bool { !parameter.required && parameter.defaultValue == nil }

    private func binding(_ parameters: [ParameterIR]) -> String {
        parameters.isEmpty ? "" : "(" + parameters.map { "let \(SwiftName.escaped($0.swiftName))" }.joined(separator: ", ") + ")"
    }

    private func renderDocs(_ description: String?, _ parameters: [ParameterIR], into writer: inout CodeWriter) {
        writer.doc(description)
        if !parameters.isEmpty {
            writer.line("/// - Parameters:")
            for parameter in parameters {
                writer.line(
                    "///   - \(parameter.swiftName): \(SwiftName.commentSafe(parameter.description ?? ""))\(parameter.secret ? " Secret: never shown in descriptions or logs." : "")"
                )
            }
        }
    }

    private func argumentDictionary(_ parameters: [ParameterIR]) -> String {
        if parameters.isEmpty { return "[:]" }
        return "["
            + parameters.map { parameter in
                let name = SwiftName.escaped(parameter.swiftName)
                let value =
                    isOptional(parameter)
                    ? "\(name).map { \(types.json("$0", parameter.type)) } ?? .null" : types.json(name, parameter.type)
                return "\(SwiftName.stringLiteral(parameter.name)): \(value)"
            }.joined(separator: ", ") + "]"
    }

    private func renderValidation(_ cases: [(name: String, parameters: [ParameterIR])], into writer: inout CodeWriter) {
        guard cases.contains(where: { $0.parameters.contains { types.hasChecks($0.type, $0.constraints) } }) else { return }
        writer.line()
        writer.block("public func validate() throws") { body in
            body.block("switch self") { switchBody in
                for item in cases {
                    let checked = item.parameters.filter { types.hasChecks($0.type, $0.constraints) }
                    if checked.isEmpty {
                        switchBody.line("case .\(SwiftName.escaped(item.name)): break")
                        continue
                    }
                    let bindings = item.parameters.map { checked.contains($0) ? "let \(SwiftName.escaped($0.swiftName))" : "_" }
                    switchBody.line("case .\(SwiftName.escaped(item.name))(\(bindings.joined(separator: ", "))):")
                    switchBody.indented { inner in
                        for parameter in checked {
                            let path = "[AnyCodingKey(\(SwiftName.stringLiteral(parameter.name)))]"
                            if isOptional(parameter) {
                                inner.block("if let value = \(SwiftName.escaped(parameter.swiftName))") { optional in
                                    types.checks("value", parameter.type, parameter.constraints, path: path, into: &optional)
                                }
                            } else {
                                types.checks(
                                    SwiftName.escaped(parameter.swiftName), parameter.type, parameter.constraints, path: path, into: &inner)
                            }
                        }
                    }
                }
            }
        }
    }

    private func renderPrivacy(into writer: inout CodeWriter) {
        writer.line()
        writer.doc("The method's name, never its arguments.")
        writer.line("public var debugDescription: String { description }")
        writer.line()
        writer.doc("No children: debuggers and `dump` must not show the arguments.")
        writer.line("public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }")
    }

    private func renderMethods(_ typeName: String, protocolName: String, methods: [MethodIR], doc: String, into writer: inout CodeWriter) {
        writer.doc(doc)
        writer.block("public enum \(typeName): \(protocolName), CustomDebugStringConvertible, CustomReflectable") { body in
            for method in methods {
                renderDocs(method.description, method.parameters, into: &body)
                let parameters = method.parameters.isEmpty ? "" : "(\(parameterList(method.parameters)))"
                body.line("case \(SwiftName.escaped(method.swiftName))\(parameters)")
            }
            body.line()
            body.block("@_spi(Generated) public var methodDescription: AuthenticationMethodDescription") { getter in
                getter.block("switch self") { cases in
                    if methods.isEmpty { return }
                    for method in methods {
                        cases.line(
                            "case .\(SwiftName.escaped(method.swiftName)): return \(sdk.typeNames.schema).Methods.\(SwiftName.escaped(method.swiftName))"
                        )
                    }
                }
            }
            body.line()
            body.block("public var arguments: [String: JSONValue]") { getter in
                getter.block("switch self") { cases in
                    for method in methods {
                        cases.line(
                            "case .\(SwiftName.escaped(method.swiftName))\(binding(method.parameters)): return \(argumentDictionary(method.parameters))"
                        )
                    }
                }
            }
            body.line()
            body.block("public var description: String") { getter in
                getter.block("switch self") { cases in
                    for method in methods {
                        cases.line("case .\(SwiftName.escaped(method.swiftName)): return \(SwiftName.stringLiteral(method.name))")
                    }
                }
            }
            renderPrivacy(into: &body)
            renderValidation(methods.map { ($0.swiftName, $0.parameters) }, into: &body)
        }
    }

    private func renderInputs(_ methods: [MethodIR], into writer: inout CodeWriter) {
        var inputs: [(name: String, method: MethodIR, step: StepIR)] = []
        for method in methods {
            for step in method.steps.dropFirst() {
                inputs.append((step.inputCaseName ?? step.name, method, step))
            }
        }
        writer.doc("The values the app supplies to run the next step of a multi-step method.")
        writer.block("public enum AuthenticationInput: AuthenticationContinuation, CustomDebugStringConvertible, CustomReflectable") {
            body in
            for input in inputs {
                renderDocs(
                    input.step.needs.isEmpty
                        ? "Runs step '\(input.step.name)' of '\(input.method.name)'."
                        : "The values step '\(input.step.name)' of '\(input.method.name)' needs.",
                    input.step.needs, into: &body)
                let parameters = input.step.needs.isEmpty ? "" : "(\(parameterList(input.step.needs)))"
                body.line("case \(SwiftName.escaped(input.name))\(parameters)")
            }
            body.line()
            for (property, value) in [
                ("methodName", { (input: (name: String, method: MethodIR, step: StepIR)) in input.method.name }),
                ("stepName", { (input: (name: String, method: MethodIR, step: StepIR)) in input.step.name }),
            ] {
                body.block("public var \(property): String") { getter in
                    getter.block("switch self") { cases in
                        for input in inputs {
                            cases.line("case .\(SwiftName.escaped(input.name)): return \(SwiftName.stringLiteral(value(input)))")
                        }
                    }
                }
                body.line()
            }
            body.block("public var values: [String: JSONValue]") { getter in
                getter.block("switch self") { cases in
                    for input in inputs {
                        cases.line(
                            "case .\(SwiftName.escaped(input.name))\(binding(input.step.needs)): return \(argumentDictionary(input.step.needs))"
                        )
                    }
                }
            }
            body.line()
            body.line("public var description: String { \"\\(methodName).\\(stepName)\" }")
            renderPrivacy(into: &body)
            renderValidation(inputs.map { ($0.name, $0.step.needs) }, into: &body)
        }
    }
}
