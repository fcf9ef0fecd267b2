/// Which cases of a generated enum must be `indirect`.
extension TypeRendering {
    /// Whether a value of `type` can hold a value of the model at `swiftPath`: the model
    /// itself, or a model reached through properties, variants, aliases, items or values.
    ///
    /// An enum case whose payload can hold the enum is a cycle and must be `indirect`; any
    /// other case is stored inline, which saves a heap box per value. The walk is
    /// conservative: it follows properties already stored behind a reference, arrays and
    /// dictionaries too, and a model it cannot find counts as reaching.
    func canHold(_ type: TypeIR, model swiftPath: String) -> Bool {
        var seen: Set<String> = []
        var pending: [TypeIR] = [type]
        while let next = pending.popLast() {
            switch next {
            case .array(let element), .dictionary(let element):
                pending.append(element)
            case .model(let reference):
                if reference.swiftPath == swiftPath { return true }
                guard seen.insert(reference.swiftPath).inserted else { continue }
                guard let target = models[reference.swiftPath] else { return true }
                switch target.kind {
                case .object(let object): pending.append(contentsOf: object.properties.map(\.type))
                case .enumeration: break
                case .union(let union): pending.append(contentsOf: union.variants.map { .model($0.model) })
                case .choice(let choice): pending.append(contentsOf: choice.variants.compactMap(\.type))
                case .alias(let aliased, _): pending.append(aliased)
                }
            case .string, .integer, .number, .boolean, .any:
                break
            }
        }
        return false
    }

    /// `indirect ` when the payload can hold the enum at `swiftPath`, or nothing.
    func indirectPrefix(_ type: TypeIR, in swiftPath: String) -> String {
        canHold(type, model: swiftPath) ? "indirect " : ""
    }
}
