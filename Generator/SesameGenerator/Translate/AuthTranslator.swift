import Foundation
import Yams
@_spi(Generated) import SesameDescription

/// Translates `auth.yaml` against the shared model table: authentication methods and
/// operations, with their parameters and the placeholders of their bodies checked against
/// what each step can see. Inline schemas that need a type are hoisted into `schemas`.
struct AuthTranslator {
    let table: ModelTable
    private(set) var diagnostics: [Diagnostic] = []

    init(table: ModelTable) {
        self.table = table
    }

    mutating func translate(_ file: ParsedFile?, schemas: inout InlineSchemas) -> ([MethodIR], [OperationIR]) {
        guard let file, let root = file.root else { return ([], []) }
        var reader = NodeReader(file: file.source.path)
        defer { diagnostics += reader.diagnostics }
        guard let entries = reader.mapping(root, "auth.yaml", grammar: Grammar.authFile) else { return ([], []) }
        var operations: [OperationIR] = []
        for entry in entries["operations"].flatMap({ reader.mapping($0.value, "operations") }) ?? [] {
            guard reader.identifier(entry, "operation") else { continue }
            if let operation = translateOperation(entry, schemas: &schemas, reader: &reader) { operations.append(operation) }
        }
        var methods: [MethodIR] = []
        for entry in entries["methods"].flatMap({ reader.mapping($0.value, "methods") }) ?? [] {
            guard reader.identifier(entry, "method") else { continue }
            if let method = translateMethod(entry, schemas: &schemas, reader: &reader) { methods.append(method) }
        }
        return (methods, operations)
    }

    // MARK: Methods

    private mutating func translateMethod(_ entry: Entry, schemas: inout InlineSchemas, reader: inout NodeReader) -> MethodIR? {
        guard let items = reader.mapping(entry.value, "method '\(entry.key)'", grammar: Grammar.method, missingAt: entry.keyNode) else {
            return nil
        }
        let parameters =
            items["parameters"].map { translateArguments($0.value, owner: entry.key, schemas: &schemas, reader: &reader) } ?? []
        guard let stepsEntry = items["steps"], let stepNodes = reader.sequence(stepsEntry.value, "steps") else { return nil }
        guard !stepNodes.isEmpty else {
            reader.error("method '\(entry.key)' needs at least one step", at: stepsEntry.value)
            return nil
        }
        var steps: [StepIR] = []
        var visible = Set(parameters.map(\.name))
        var stepResponses: [String: Set<String>] = [:]
        for (index, node) in stepNodes.enumerated() {
            guard
                let stepItems = reader.mapping(node, "a step of '\(entry.key)'", grammar: Grammar.step)
            else { continue }
            var name = stepNodes.count == 1 ? "authenticate" : "step\(index + 1)"
            if let nameEntry = stepItems["name"], let text = reader.string(nameEntry.value, "name") {
                if !Identifier.isValid(text) {
                    reader.error(
                        "step name '\(text)' is not a valid identifier: use letters, digits and _, not starting with a digit",
                        at: nameEntry.value)
                } else if steps.contains(where: { $0.name == text }) {
                    reader.error("method '\(entry.key)' has two steps named '\(text)'", at: nameEntry.value)
                } else {
                    name = text
                }
            }
            // A step's description documents the schema for its readers; the generated code does not show it.
            if let description = stepItems["description"] { _ = reader.string(description.value, "description") }
            if index == 0, stepItems["needs"] != nil {
                reader.error("the first step cannot have needs: the method's parameters give its values", at: stepItems["needs"]!.keyNode)
            }
            let needs = stepItems["needs"].map { translateNeeds($0.value, owner: entry.key, schemas: &schemas, reader: &reader) } ?? []
            for need in needs {
                if visible.contains(need.name) {
                    reader.error("'\(need.name)' is already a parameter or an earlier need", at: stepItems["needs"]!.value)
                }
                visible.insert(need.name)
            }
            guard
                let requestEntry = stepItems["request"],
                var request = reader.requestLine(requestEntry.value, "the step's request", name: "\(entry.key).\(name)")
            else { continue }
            // The step's kind: the one kind key it writes, if any (a plain request otherwise).
            let present = presentKinds(in: stepItems, reader: &reader)
            // A step with client authentication talks to the authorization server (one origin
            // with the API when the schema declares no authorizationServer), so that an app
            // that sets `authorizationServerURL` at run time moves its token steps there.
            let clientAuthentication = reader.clientAuthentication(stepItems["clientAuthentication"])
            let tokenStep = clientAuthentication != .none || present.contains { $0.sendsTokenRequest }
            request.value.server = reader.server(stepItems["server"], default: tokenStep ? .authorization : .api)
            request.value.clientAuthentication = clientAuthentication
            let context = StepKindContext(
                name: "\(entry.key).\(name)", items: stepItems, requestKey: requestEntry.keyNode,
                clientAuthentication: clientAuthentication, onAuthorizationServer: tokenStep, visible: visible, stepResponses: stepResponses
            )
            let kinds = translateKinds(present, of: context, reader: &reader)
            // What the kind brings back (the browser's code, the device code) is visible to
            // this step's token request only.
            let provided = kinds.first?.kind.provided ?? []
            let body = (stepItems["body"].map { reader.templateFields($0.value, "the step's body") } ?? []).map { $0.providing(provided) }
            for field in body {
                for placeholder in field.value.placeholders where !provided.contains(placeholder) {
                    checkPlaceholder(placeholder.path, visible: visible, stepResponses: stepResponses, at: field.location, reader: &reader)
                }
            }
            for (translator, _) in kinds { translator.checkTokenRequest(body, of: context, reader: &reader) }
            var response: ModelRef?
            if let responseEntry = stepItems["response"], let model = modelReference(responseEntry.value, reader: &reader) {
                response = model
                stepResponses[name] = propertyNames(of: model)
            }
            if index == stepNodes.count - 1, response == nil {
                reader.error("the last step of '\(entry.key)' must declare its response: the token response", at: node)
            }
            request.value.encoding = reader.encoding(stepItems["encoding"], "the step")
            let kind = kinds.first?.kind
            steps.append(
                StepIR(
                    value: AuthenticationStepDescription(
                        name: name, needs: needs.map(\.name), kind: kind?.kind ?? .request, request: request.value,
                        body: body.map(\.field)),
                    needs: needs, response: response, location: reader.location(of: node), requestLocation: request.location,
                    kindLocation: kind?.location, openIDLocation: kind?.openIDLocation))
        }
        return MethodIR(
            name: entry.key, description: items["description"].flatMap { reader.string($0.value, "description") },
            parameters: parameters, steps: steps, location: reader.location(of: entry.keyNode))
    }

    func checkPlaceholder(
        _ path: [String], visible: Set<String>, stepResponses: [String: Set<String>],
        at location: SourceLocation, reader: inout NodeReader
    ) {
        if path.count == 1 {
            if !visible.contains(path[0]) {
                let hint = Suggestion.hint(for: path[0], among: Array(visible)) { "{\($0)}" } ?? ""
                reader.append(.error("no parameter, need or earlier step provides '{\(path[0])}'\(hint)", at: location))
            }
            return
        }
        guard let fields = stepResponses[path[0]] else {
            reader.append(.error("'{\(path.joined(separator: "."))}' names no earlier step with a response: '\(path[0])'", at: location))
            return
        }
        if path.count == 2, !fields.contains(path[1]) {
            reader.append(.error("the response of step '\(path[0])' has no property '\(path[1])'", at: location))
        }
    }

    private func modelReference(_ node: Node, reader: inout NodeReader) -> ModelRef? {
        guard let name = reader.string(node, "response") else { return nil }
        if let reference = table.reference(to: name) { return reference }
        table.reportUnknownModel(name, at: node, reader: &reader)
        return nil
    }

    private func propertyNames(of model: ModelRef) -> Set<String> {
        model.declaredName.map(table.propertyNames) ?? []
    }

    /// Method parameters: `name: { schema…, secret: true }`.
    private mutating func translateArguments(
        _ node: Node, owner: String, schemas: inout InlineSchemas, reader: inout NodeReader
    ) -> [ParameterIR] {
        guard let entries = reader.mapping(node, "parameters") else { return [] }
        return entries.compactMap { entry in
            guard reader.identifier(entry, "parameter") else { return nil }
            return parameter(
                entry, schemaNode: entry.value, location: .argument, required: nil, owner: owner, schemas: &schemas, reader: &reader)
        }
    }

    /// Step needs: a list of names (strings) or a mapping of names to schemas.
    private mutating func translateNeeds(
        _ node: Node, owner: String, schemas: inout InlineSchemas, reader: inout NodeReader
    ) -> [ParameterIR] {
        if case .mapping = node {
        } else {
            return (reader.strings(node, "needs") ?? []).compactMap { name, item in
                guard Identifier.isValid(name) else {
                    reader.error("need '\(name)' is not a valid identifier: use letters, digits and _, not starting with a digit", at: item)
                    return nil
                }
                return ParameterIR(
                    name: name, location: .argument, type: .string(nil), required: true,
                    defaultValue: nil, constraints: ConstraintsIR(), description: nil, secret: false,
                    sourceLocation: reader.location(of: item))
            }
        }
        return translateArguments(node, owner: owner, schemas: &schemas, reader: &reader)
    }

    /// The value of a schema that is only a constant (`{ const: password }`, with a `type` or
    /// a `description` at most), as text; nil for any other schema.
    private static func constant(of schema: Node) -> String? {
        guard case .mapping(let mapping) = schema, let value = mapping["const"], case .scalar(let scalar) = value,
            !value.isNullScalar,
            mapping.keys.allSatisfy({ ["const", "type", "description"].contains($0.string ?? "") })
        else { return nil }
        return scalar.string
    }

    /// One parameter from a schema node that may also hold `secret`, `in`, `required`.
    private mutating func parameter(
        _ entry: Entry, schemaNode: Node, location: ParameterIR.Location, required: Bool?, owner: String,
        schemas: inout InlineSchemas, reader: inout NodeReader
    ) -> ParameterIR? {
        var secret = false
        var schema = schemaNode
        if case .mapping(let mapping) = schemaNode {
            var kept: [(Node, Node)] = []
            for index in mapping.indices {
                let (key, value) = mapping[index]
                if key.string == "secret" {
                    secret = reader.bool(value, "secret") ?? false
                } else {
                    kept.append((key, value))
                }
            }
            schema = .mapping(Node.Mapping(kept, mapping.tag, mapping.style, mapping.mark))
        }
        let resolved = schemas.inlineType(schema, hint: NamingPass.hoistedTypeName(owner: owner, key: entry.key), reader: &reader)
        return ParameterIR(
            name: entry.key, location: location, type: resolved.type,
            required: required ?? (resolved.defaultValue == nil && !resolved.nullable),
            defaultValue: resolved.defaultValue, constraints: resolved.constraints, description: resolved.description,
            secret: secret, sourceLocation: reader.location(of: entry.keyNode))
    }

    // MARK: Operations

    private mutating func translateOperation(_ entry: Entry, schemas: inout InlineSchemas, reader: inout NodeReader) -> OperationIR? {
        guard
            let items = reader.mapping(entry.value, "operation '\(entry.key)'", grammar: Grammar.operation, missingAt: entry.keyNode)
        else { return nil }
        guard let requestEntry = items["request"],
            var request = reader.requestLine(requestEntry.value, "the request of '\(entry.key)'", name: entry.key)
        else { return nil }
        request.value.server = reader.server(items["server"], default: .api)
        var parameters: [ParameterIR] = []
        for parameterEntry in items["parameters"].flatMap({ reader.mapping($0.value, "parameters") }) ?? [] {
            guard reader.identifier(parameterEntry, "parameter"),
                let fields = reader.mapping(
                    parameterEntry.value, "parameter '\(parameterEntry.key)'", grammar: Grammar.operationParameter,
                    missingAt: parameterEntry.keyNode)
            else { continue }
            var location = ParameterIR.Location.query
            if let inEntry = fields["in"], let text = reader.string(inEntry.value, "in") {
                switch text {
                case "path": location = .path
                case "query": location = .query
                default: reader.error("'in' must be path or query, found '\(text)'", at: inEntry.value)
                }
            }
            let required = fields["required"].flatMap { reader.bool($0.value, "required") } ?? (location == .path)
            if location == .path, !request.pathParameters.contains(parameterEntry.key) {
                reader.error(
                    "path parameter '\(parameterEntry.key)' does not appear in the path '\(request.value.path)'", at: parameterEntry.keyNode
                )
            }
            if location == .path, !required {
                reader.error("a path parameter is always required", at: fields["required"]!.value)
            }
            guard let schemaEntry = fields["schema"] else { continue }
            if request.constantQueryNames.contains(parameterEntry.key) {
                reader.error(
                    "query parameter '\(parameterEntry.key)' is already a constant of the request line '\(request.value.path)'",
                    at: parameterEntry.keyNode)
                continue
            }
            if location == .query, let constant = Self.constant(of: schemaEntry.value) {
                // The app never supplies a constant: it goes on the request line.
                request.appendConstantQuery(name: parameterEntry.key, value: constant)
                continue
            }
            if var parameter = parameter(
                parameterEntry, schemaNode: schemaEntry.value, location: location, required: required,
                owner: entry.key, schemas: &schemas, reader: &reader)
            {
                if let description = fields["description"].flatMap({ reader.string($0.value, "description") }) {
                    parameter.description = description
                }
                if !table.isSimple(parameter.type, hoisted: schemas.hoisted) {
                    reader.error("a \(location.rawValue) parameter must be a string, number, boolean or enum", at: schemaEntry.value)
                }
                parameters.append(parameter)
            }
        }
        for name in request.pathParameters where !parameters.contains(where: { $0.name == name }) {
            parameters.append(
                ParameterIR(
                    name: name, location: .path, type: .string(nil), required: true,
                    defaultValue: nil, constraints: ConstraintsIR(), description: nil, secret: false,
                    sourceLocation: request.location))
        }
        let body = items["body"].map {
            schemas.hoistedType($0.value, for: entry.key, .body, reader: &reader)
        }
        let response = items["response"].map {
            schemas.hoistedType($0.value, for: entry.key, .response, reader: &reader)
        }
        // The access token goes to the authorization server only where a request says so.
        let authenticated = items["authenticated"].flatMap { reader.bool($0.value, "authenticated") } ?? (request.value.server == .api)
        if !authenticated, let fresh = items["freshAuthentication"] {
            reader.error("freshAuthentication needs an authenticated operation", at: fresh.keyNode)
        }
        if let encoding = items["encoding"], items["body"] == nil {
            reader.error("encoding applies to a body, and operation '\(entry.key)' has none", at: encoding.keyNode)
        }
        if body != nil, [.get, .head].contains(request.value.method) {
            reader.error("a \(request.value.method.rawValue) request cannot have a body", at: items["body"]!.keyNode)
        }
        let description = items["description"].flatMap { reader.string($0.value, "description") }
        request.value.encoding = reader.encoding(items["encoding"], "the operation")
        request.value.authenticated = authenticated
        request.value.freshAuthentication =
            items["freshAuthentication"].flatMap { reader.duration($0.value, "freshAuthentication") }?
            .duration
        return OperationIR(
            name: entry.key, description: description, request: request, parameters: parameters, body: body, response: response,
            deprecated: items["deprecated"].flatMap { reader.bool($0.value, "deprecated") } ?? false,
            location: reader.location(of: entry.keyNode))
    }
}
