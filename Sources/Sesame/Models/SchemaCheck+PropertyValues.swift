@_spi(Generated) import SesameDescription

extension SchemaCheck {
    /// What a check reads of an object: the names of its properties only (`minProperties`,
    /// `required`, `dependentRequired`, `propertyNames`…), the values of some properties too
    /// (those `properties` names), or every value (`const`, `enum`, `$ref`,
    /// `patternProperties`, `additionalProperties`, and any keyword this list does not know).
    ///
    /// ``ModelCoding/check(_:_:)`` builds only what the check reads: an object whose other
    /// values are `null` placeholders, which no keyword of a check that reads only names looks
    /// at, instead of decoding the whole object as a ``JSONValue`` before the model decodes it
    /// again (which costs 4.3× the time of plain `Codable` for two keywords on a list of
    /// notes).
    enum PropertyValues: Sendable, Equatable {
        case none
        case named(Set<String>)
        case all

        /// What `check` reads, with `subschemas` the compiled `allOf`, `anyOf`, `oneOf`, `not`,
        /// `if`, `then` and `else`, applied to the same object.
        init(_ check: ModelCheck, subschemas: [SchemaCheck]) {
            // Keywords of other JSON types say nothing of an object.
            var rest = check.objectKeywords
            // Keywords that read the object's type and property names only.
            rest.types = nil
            rest.required = []
            rest.minProperties = nil
            rest.maxProperties = nil
            rest.dependentRequired = [:]
            rest.propertyNames = nil
            // Subschemas, read as they say (`subschemas`).
            rest.allOf = []
            rest.anyOf = []
            rest.oneOf = []
            rest.not = nil
            rest.ifSchema = nil
            rest.thenSchema = nil
            rest.elseSchema = nil
            let named = Set(rest.properties.keys)
            rest.properties = [:]
            // Anything left (`const`, `enum`, `$ref`, `patternProperties`, `additionalProperties`,
            // a keyword added later) may read any value.
            guard rest.isEmpty else {
                self = .all
                return
            }
            self = subschemas.reduce(named.isEmpty ? .none : .named(named)) { $0.union($1.propertyValues) }
        }

        func union(_ other: PropertyValues) -> PropertyValues {
            switch (self, other) {
            case (.all, _), (_, .all): return .all
            case (.none, let values), (let values, .none): return values
            case (.named(let left), .named(let right)): return .named(left.union(right))
            }
        }

        /// Whether the value of the property `name` is read.
        func reads(_ name: String) -> Bool {
            switch self {
            case .none: return false
            case .named(let names): return names.contains(name)
            case .all: return true
            }
        }
    }
}

extension ModelCheck {
    /// This check without the keywords of JSON types other than object (numbers, strings,
    /// arrays): what it can say of an object's value.
    var objectKeywords: ModelCheck {
        var check = self
        check.multipleOf = nil
        check.minimum = nil
        check.maximum = nil
        check.exclusiveMinimum = nil
        check.exclusiveMaximum = nil
        check.minLength = nil
        check.maxLength = nil
        check.pattern = nil
        check.format = nil
        check.prefixItems = []
        check.items = nil
        check.contains = nil
        check.minContains = nil
        check.maxContains = nil
        check.uniqueItems = false
        check.minItems = nil
        check.maxItems = nil
        return check
    }
}
