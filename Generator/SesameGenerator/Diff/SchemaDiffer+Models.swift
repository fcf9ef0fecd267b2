@_spi(Generated) import SesameDescription

/// Models: which travel in requests and responses, and how each changed.
extension SchemaDiffer {
    static func table(_ models: [ModelIR]) -> [String: ModelIR] {
        var table: [String: ModelIR] = [:]
        func add(_ model: ModelIR, prefix: String) {
            let path = prefix.isEmpty ? model.swiftName : "\(prefix).\(model.swiftName)"
            table[path] = model
            for inner in model.nested { add(inner, prefix: path) }
        }
        for model in models { add(model, prefix: "") }
        return table
    }

    /// The models reachable from responses (operation and step responses, event payloads)
    /// and from requests (bodies and parameters).
    static func usage(of sdk: SDKIR, models: [String: ModelIR]) -> (responses: Set<String>, requests: Set<String>) {
        func referenced(_ type: TypeIR?) -> [String] {
            switch type {
            case .model(let model)?: return [model.swiftPath]
            case .array(let element)?, .dictionary(let element)?: return referenced(element)
            default: return []
            }
        }
        func close(_ roots: [String]) -> Set<String> {
            var seen: Set<String> = []
            var queue = roots
            while let name = queue.popLast() {
                guard seen.insert(name).inserted, let model = models[name] else { continue }
                switch model.kind {
                case .object(let object):
                    for property in object.properties { queue += referenced(property.type) }
                    if case .kept(let type, _) = object.additionalProperties { queue += referenced(type) }
                case .union(let union): queue += union.variants.map(\.model.swiftPath)
                case .choice(let choice): queue += choice.variants.flatMap { referenced($0.type) }
                case .alias(let type, _): queue += referenced(type)
                case .enumeration: break
                }
                for inner in model.nested { queue.append("\(name).\(inner.swiftName)") }
            }
            return seen
        }
        let stepModels = sdk.methods.flatMap(\.steps).compactMap(\.response?.swiftPath)
        let responseRoots =
            sdk.operations.flatMap { referenced($0.response) } + sdk.events.events.flatMap { referenced($0.payload) } + stepModels
        let requestRoots =
            sdk.operations.flatMap { referenced($0.body) + $0.parameters.flatMap { referenced($0.type) } }
            + sdk.methods.flatMap {
                $0.parameters.flatMap { referenced($0.type) } + $0.steps.flatMap { $0.needs.flatMap { referenced($0.type) } }
            }
        return (close(responseRoots), close(requestRoots))
    }

    mutating func compareModels() {
        for path in oldModels.keys.sorted() {
            let model = oldModels[path]!
            guard let updated = newModels[path] else {
                add("model.removed", .breaking, "model '\(path)' was removed", at: model.location)
                continue
            }
            switch (model.kind, updated.kind) {
            case (.object(let before), .object(let after)):
                compareObject(path, before, after, location: updated.location)
            case (.enumeration(let before), .enumeration(let after)):
                compareEnum(path, before, after, location: updated.location)
            case (.union(let before), .union(let after)):
                let tags = Set(after.variants.map(\.tag))
                for variant in before.variants where !tags.contains(variant.tag) {
                    add("union.variant-removed", .breaking, "variant '\(variant.tag)' of '\(path)' was removed", at: updated.location)
                }
                let oldTags = Set(before.variants.map(\.tag))
                for variant in after.variants where !oldTags.contains(variant.tag) {
                    let (grade, why) = addedValueGrade(closed: before.closed, path: path, noun: "union")
                    add("union.variant-added", grade, "variant '\(variant.tag)' of '\(path)' was added; \(why)", at: variant.location)
                }
            case (.choice(let before), .choice(let after)):
                if before.variants.map(\.type) != after.variants.map(\.type) || before.exactlyOne != after.exactlyOne {
                    add("model.type-changed", .breaking, "model '\(path)' changed its schemas", at: updated.location)
                }
            case (.alias(let before, let beforeConstraints), .alias(let after, let afterConstraints)):
                let wrapped = oldTypes.wrapsAlias(model, before, beforeConstraints)
                let wrapsNow = newTypes.wrapsAlias(updated, after, afterConstraints)
                if !sameType(before, after) {
                    add("model.type-changed", .breaking, "model '\(path)' changed type", at: updated.location)
                } else if wrapped != wrapsNow {
                    // The same test as the renderer's: a checked `Email` is a struct, an unchecked one `String`.
                    let what =
                        wrapped
                        ? "became a typealias of its value's type; app code that calls '\(path)(rawValue:)' or reads '.rawValue' no longer compiles"
                        : "became a struct wrapping its value; app code that uses it as its value's type no longer compiles"
                    add("model.type-changed", .breaking, "model '\(path)' \(what)", at: updated.location)
                } else if beforeConstraints != afterConstraints {
                    add("model.constraints-changed", .warning, "model '\(path)' changed its constraints", at: updated.location)
                }
            default:
                add(
                    "model.kind-changed", .breaking, "model '\(path)' changed from \(kindName(model.kind)) to \(kindName(updated.kind))",
                    at: updated.location)
            }
        }
        for path in newModels.keys.sorted() where oldModels[path] == nil {
            add("model.added", .compatible, "model '\(path)' was added", at: newModels[path]!.location)
        }
    }

    func kindName(_ kind: ModelIR.Kind) -> String {
        switch kind {
        case .object: return "an object"
        case .enumeration: return "an enum"
        case .union: return "a oneOf"
        case .choice(let choice): return "an \(choice.keyword == "type" ? "enum of types" : choice.keyword)"
        case .alias: return "a plain type"
        }
    }

    mutating func compareObject(_ path: String, _ before: ObjectIR, _ after: ObjectIR, location: SourceLocation) {
        let inResponses = responseModels.contains(path)
        let inRequests = requestModels.contains(path)
        let afterByName = Dictionary(uniqueKeysWithValues: after.properties.map { ($0.name, $0) })
        for property in before.properties {
            guard let updated = afterByName[property.name] else {
                let wire = inResponses ? "; shipped apps that read it stop decoding" : ""
                add("property.removed", .breaking, "property '\(property.name)' of '\(path)' was removed\(wire)", at: location)
                continue
            }
            if !sameType(property.type, updated.type) {
                add("property.type-changed", .breaking, "property '\(property.name)' of '\(path)' changed type", at: updated.location)
            }
            if property.isOptional && !updated.isOptional {
                let wire = inRequests ? " (shipped apps may not send it)" : ""
                add(
                    "property.now-required", .breaking, "property '\(property.name)' of '\(path)' became required\(wire)",
                    at: updated.location)
            } else if !property.isOptional && updated.isOptional {
                let wire = inResponses ? " (shipped apps fail to decode a response without it)" : ""
                add(
                    "property.now-optional", .breaking, "property '\(property.name)' of '\(path)' became optional\(wire)",
                    at: updated.location)
            }
            if property.constraints != updated.constraints {
                add(
                    "property.constraints-changed", .warning, "property '\(property.name)' of '\(path)' changed its constraints",
                    at: updated.location)
            }
        }
        let names = Set(before.properties.map(\.name))
        for property in after.properties where !names.contains(property.name) {
            if property.isOptional {
                add("property.added", .compatible, "property '\(property.name)' was added to '\(path)'", at: property.location)
            } else {
                let wire = inRequests ? "; shipped apps do not send it" : ""
                add(
                    "property.added-required", .breaking, "required property '\(property.name)' was added to '\(path)'\(wire)",
                    at: property.location)
            }
        }
        if before.additionalProperties != after.additionalProperties {
            add(
                "model.additional-properties-changed", after.additionalProperties == .rejected ? .breaking : .warning,
                "'\(path)' changed what it does with undeclared properties", at: location)
        }
    }

    mutating func compareEnum(_ path: String, _ before: EnumIR, _ after: EnumIR, location: SourceLocation) {
        let values = Set(after.cases.map(\.rawValue))
        for item in before.cases where !values.contains(item.rawValue) {
            add("enum.value-removed", .breaking, "value '\(item.rawValue)' of enum '\(path)' was removed", at: location)
        }
        let oldValues = Set(before.cases.map(\.rawValue))
        for item in after.cases where !oldValues.contains(item.rawValue) {
            let (grade, why) = addedValueGrade(closed: before.closed, path: path, noun: "enum")
            add("enum.value-added", grade, "value '\(item.rawValue)' was added to enum '\(path)'; \(why)", at: item.location)
        }
        if before.rawType != after.rawType {
            add("enum.type-changed", .breaking, "enum '\(path)' changed its raw type", at: location)
        }
    }
}

extension SchemaDiffer {
    /// How a value (or variant) added to the enum (or discriminated union) at `path` is
    /// graded, and why: open ones keep unknown values as `.unknown`, so shipped apps decode it;
    /// closed ones (`models.enums: closed`) refuse it when they decode it, which only a
    /// response model does.
    func addedValueGrade(closed: Bool, path: String, noun: String) -> (SchemaChange.Grade, String) {
        guard closed else { return (.compatible, "older SDKs decode it as .unknown") }
        guard responseModels.contains(path) else {
            return (.compatible, "the \(noun) travels only in requests, which older SDKs never send it in")
        }
        return (.breaking, "older SDKs, whose \(noun)s are closed, refuse it in responses")
    }
}
