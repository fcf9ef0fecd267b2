@_spi(Generated) import SesameDescription

/// Finds models that contain themselves by value, and decides which properties are stored
/// behind a reference.
///
/// A cycle whose every step is a required, non-null property can have no finite value and
/// is an error. Any other cycle is broken by storing its properties behind a reference
/// (`PropertyIR.indirect`); `storeObjectsIndirectly` then stores so every property whose type
/// is an object model (a struct). Arrays and dictionaries already are references; enums,
/// unions and choices are small or boxed.
///
/// Why not only the cycles: a struct that holds another by value holds all of its fields, and
/// that one's, down the whole chain. The compiler then emits copy, assignment, destruction
/// and comparison code for every field of the chain in every model, so a model `n` levels
/// deep costs `n` times the machine code of a flat one: in a debug build of 500 models nested
/// up to nine deep, most of the compile time (docs/performance.md, "What keeps the generated
/// code cheap to compile"). Behind a reference each model costs the same whatever its
/// depth, and a copy of a model is one retain per nested object.
enum CycleChecker {
    private struct Edge {
        var from: String
        var to: String
        var property: String
        var mandatory: Bool
        var location: SourceLocation
    }

    static func check(_ models: inout [ModelIR], diagnostics: inout [Diagnostic]) {
        var edges: [Edge] = []
        forEachModel(models) { model, path in
            if case .object(let object) = model.kind {
                for property in object.properties {
                    if case .model(let target) = property.type {
                        edges.append(
                            Edge(
                                from: path, to: target.swiftPath, property: property.name,
                                mandatory: property.required && !property.nullable, location: property.location))
                    }
                }
            }
            if case .union(let union) = model.kind {
                for variant in union.variants {
                    edges.append(
                        Edge(from: path, to: variant.model.swiftPath, property: variant.tag, mandatory: false, location: variant.location))
                }
            }
            if case .choice(let choice) = model.kind {
                for variant in choice.variants {
                    if case .model(let target)? = variant.type {
                        edges.append(
                            Edge(from: path, to: target.swiftPath, property: variant.hint, mandatory: false, location: variant.location))
                    }
                }
            }
            if case .alias(.model(let target), _) = model.kind {
                edges.append(Edge(from: path, to: target.swiftPath, property: "", mandatory: true, location: model.location))
            }
        }

        // A type alias that reaches itself through arrays or dictionaries of aliases
        // (`A: { type: array, items: { $ref: "#/A" } }` is `typealias A = [A]`; found by the
        // random schemas, scripts/random-schemas.sh): Swift refuses
        // a type alias that references itself, so the schema is refused at the model.
        var aliasEdges: [Edge] = []
        forEachModel(models) { model, path in
            guard case .alias(let type, _) = model.kind else { return }
            for target in Self.models(in: type) {
                aliasEdges.append(Edge(from: path, to: target, property: "", mandatory: true, location: model.location))
            }
        }
        let aliasModels = Set(models.compactMap { if case .alias = $0.kind { $0.swiftName } else { nil } })
        let aliasComponents = components(of: aliasEdges.filter { aliasModels.contains($0.to) })
        // An alias of an alias alone is the mandatory check's (below): here, those that hold an array or dictionary.
        for model in models.sorted(by: { $0.location < $1.location }) where aliasComponents[model.swiftName] != nil {
            guard case .alias(let type, _) = model.kind, Self.isCollection(type) else { continue }
            diagnostics.append(
                .error(
                    "model '\(model.name)' is an array or dictionary of itself (a type alias cannot contain itself); declare an object with a property that holds it",
                    at: model.location))
        }

        // Cycles of mandatory edges: no finite value exists.
        let mandatory = edges.filter(\.mandatory)
        let mandatoryComponents = components(of: mandatory)
        var reported: Set<Int> = []
        for edge in mandatory.sorted(by: { $0.location < $1.location }) {
            guard let component = mandatoryComponents[edge.from], component == mandatoryComponents[edge.to],
                reported.insert(component).inserted
            else { continue }
            let members = mandatoryComponents.filter { $0.value == component }.keys.sorted()
            diagnostics.append(
                .error(
                    "cycle with no indirection through \(members.joined(separator: ", ")); make one of these properties optional, nullable or an array",
                    at: edge.location))
        }

        // Every other edge inside a cycle is stored indirectly (one through an alias of an
        // object, say); `storeObjectsIndirectly` then adds every property holding an object.
        let allComponents = components(of: edges)
        var indirect: Set<String> = []
        for edge in edges where allComponents[edge.from] != nil && allComponents[edge.from] == allComponents[edge.to] {
            indirect.insert("\(edge.from)#\(edge.property)")
        }
        guard !indirect.isEmpty else { return }
        updateObjects(&models) { object, path in
            for index in object.properties.indices where indirect.contains("\(path)#\(object.properties[index].name)") {
                object.properties[index].indirect = true
            }
        }
    }

    /// Marks every property whose type is an object model (declared, nested or hoisted from
    /// an inline schema) as stored behind a reference. Call with every model of the SDK,
    /// before the naming pass names the storage.
    static func storeObjectsIndirectly(_ models: inout [ModelIR]) {
        var objects: Set<String> = []
        forEachModel(models) { model, path in
            if case .object = model.kind { objects.insert(path) }
        }
        updateObjects(&models) { object, _ in
            for index in object.properties.indices {
                if case .model(let target) = object.properties[index].type, objects.contains(target.swiftPath) {
                    object.properties[index].indirect = true
                }
            }
        }
    }

    /// Calls `body` with every model, nested ones included, and its Swift path
    /// (`Profile.Address`), the path a `TypeIR.model` reference names.
    private static func forEachModel(_ models: [ModelIR], _ body: (ModelIR, String) -> Void) {
        func visit(_ model: ModelIR, path: String) {
            body(model, path)
            for inner in model.nested { visit(inner, path: "\(path).\(inner.swiftName)") }
        }
        for model in models { visit(model, path: model.swiftName) }
    }

    /// Lets `update` change every object model, nested ones included, given its Swift path.
    private static func updateObjects(_ models: inout [ModelIR], _ update: (inout ObjectIR, String) -> Void) {
        func visit(_ model: inout ModelIR, path: String) {
            if case .object(var object) = model.kind {
                update(&object, path)
                model.kind = .object(object)
            }
            for index in model.nested.indices { visit(&model.nested[index], path: "\(path).\(model.nested[index].swiftName)") }
        }
        for index in models.indices { visit(&models[index], path: models[index].swiftName) }
    }

    /// The strongly connected component of each node that lies on a cycle (Tarjan's
    /// algorithm, iterative, linear in nodes and edges). Nodes on no cycle are absent.
    private static func isCollection(_ type: TypeIR) -> Bool {
        switch type {
        case .array, .dictionary: return true
        default: return false
        }
    }

    /// The Swift paths of the models a type spells, through arrays and dictionaries.
    private static func models(in type: TypeIR) -> [String] {
        switch type {
        case .model(let reference): return [reference.swiftPath]
        case .array(let element), .dictionary(let element): return models(in: element)
        default: return []
        }
    }

    private static func components(of edges: [Edge]) -> [String: Int] {
        var adjacency: [String: [String]] = [:]
        var selfLoops: Set<String> = []
        for edge in edges {
            adjacency[edge.from, default: []].append(edge.to)
            if edge.from == edge.to { selfLoops.insert(edge.from) }
        }
        var index: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var counter = 0
        var componentCount = 0
        var result: [String: Int] = [:]
        for root in adjacency.keys.sorted() where index[root] == nil {
            var work: [(node: String, next: Int)] = [(root, 0)]
            index[root] = counter
            lowLink[root] = counter
            counter += 1
            stack.append(root)
            onStack.insert(root)
            while !work.isEmpty {
                let (node, next) = work[work.count - 1]
                let neighbours = adjacency[node] ?? []
                if next < neighbours.count {
                    work[work.count - 1].next += 1
                    let neighbour = neighbours[next]
                    if index[neighbour] == nil {
                        index[neighbour] = counter
                        lowLink[neighbour] = counter
                        counter += 1
                        stack.append(neighbour)
                        onStack.insert(neighbour)
                        work.append((neighbour, 0))
                    } else if onStack.contains(neighbour) {
                        lowLink[node] = min(lowLink[node]!, index[neighbour]!)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last {
                    lowLink[parent.node] = min(lowLink[parent.node]!, lowLink[node]!)
                }
                if lowLink[node] == index[node] {
                    var members: [String] = []
                    while let top = stack.popLast() {
                        onStack.remove(top)
                        members.append(top)
                        if top == node { break }
                    }
                    if members.count > 1 || selfLoops.contains(node) {
                        for member in members { result[member] = componentCount }
                        componentCount += 1
                    }
                }
            }
        }
        return result
    }
}

/// Whether a literal (`default`) fits a type.
enum LiteralCheck {
    static func fits(_ literal: JSONValue, _ type: TypeIR, declarations: [String: ModelTranslator.Declaration]) -> Bool {
        switch (literal, type) {
        case (.null, _): return true
        case (.integer(let value), .integer(.int32?)):
            return Int32(exactly: value) != nil
        case (.number(let value), .number(.float?)):
            return abs(value) <= Double(Float.greatestFiniteMagnitude)
        case (.string, .string), (.bool, .boolean), (.integer, .integer), (.integer, .number), (.number, .number), (_, .any):
            return true
        case (.number(let value), .integer(let format)):
            // JSON Schema: 2.0 is an integer.
            guard value.rounded() == value else { return false }
            return format == .int32 ? Int32(exactly: value) != nil : abs(value) < 1e15
        case (.array(let items), .array(let element)):
            return items.allSatisfy { fits($0, element, declarations: declarations) }
        case (.object, .dictionary):
            return true
        case (.string, .model), (.integer, .model):
            return true  // checked against the enum's cases by the renderer's lookup
        default:
            return false
        }
    }
}
