/// When a `$ref` inside an object model's check needs no decoding of its own.
extension TypeRendering {
    /// The required keys of the model `reference` names, when `object`'s own decoding checks
    /// every property of that model as the model would, so that on `object`'s decoder the
    /// `$ref` is met exactly when those keys are present and `object`'s properties decode; nil
    /// otherwise (the `$ref` then decodes the model, as before).
    ///
    /// That holds when the referenced model is an object with no check of its own (no
    /// `ModelCheck`: no `minProperties`, `not`, `$ref`, …) and ignores keys it does not declare
    /// (`additionalProperties` absent), and each of its properties is declared by `object` with
    /// the same type and keywords, nullable only where it is nullable too, and holds no model:
    /// an enum, union or object property decodes an unknown value differently when tried
    /// against a schema (strictly) than as its own type, so its check would not be the same.
    /// `object` decodes every property it declares whenever the key is present, after its
    /// check; so a value the referenced model refuses is refused by `object` too, and a value
    /// `object` accepts is one the referenced model accepts.
    func impliedReferenceKeys(_ reference: ModelRef, by object: ObjectIR) -> [String]? {
        guard let model = models[reference.swiftPath], case .object(let referenced) = model.kind, referenced.schema == nil,
            referenced.additionalProperties == .ignored
        else { return nil }
        for property in referenced.properties {
            guard !property.type.containsModel,
                let own = object.properties.first(where: { $0.name == property.name }),
                own.type == property.type, own.constraints == property.constraints, !own.nullable || property.nullable
            else { return nil }
        }
        return referenced.properties.filter(\.required).map(\.name)
    }
}
