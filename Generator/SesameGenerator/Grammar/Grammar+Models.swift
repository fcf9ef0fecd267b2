/// Models files: the JSON Schema 2020-12 keywords a schema may use.
extension Grammar {
    static let modelsFile = GrammarMapping(
        "models file",
        "Any .yaml file that is not sdk, auth, errors, events or store declares models: each top-level key is a model's name.",
        keys: [
            GrammarKey(
                "$defs", .dictionary(values: .either([.boolean, .shared("schema")])), "More models, referred to as `#/$defs/Name`."),
            GrammarKey("$comment", .string(), "A comment for readers of the file; read and ignored."),
        ],
        names: (.anyName, .either([.boolean, .shared("schema")]), "", always: false), nullable: true)

    private static let typeNames = ["string", "integer", "number", "boolean", "array", "object", "null"]
    private static let count: GrammarValue = .integer(minimum: 0)

    /// A model or an inline schema. Each keyword that applies to one type is checked
    /// against the type by the model translator.
    static let schema = GrammarMapping(
        "schema", "A data model in JSON Schema (the draft 2020-12 keywords Sesame supports).",
        keys: [
            GrammarKey(
                "type",
                .either([
                    .oneOf(typeNames),
                    .list(.refined(.any, [("enum", .array(typeNames.map { .string($0) } + [.null]))]), minimumCount: 1, unique: true),
                ]),
                "string, integer, number, boolean, array, object or null; a list (`[string, integer]`) is an enum of the types, and `[T, \"null\"]` makes the value nullable."
            ),
            GrammarKey("description", .shared("text"), "Documentation comment of the generated type or property."),
            GrammarKey("title", .shared("text"), "A short title, put before the description in the documentation comment."),
            GrammarKey("default", .any, "The value used when the property is absent; the Swift property is then not optional."),
            GrammarKey("deprecated", .boolean, "Marks the property deprecated in its documentation comment."),
            GrammarKey("examples", .any, "Examples; an annotation the generator does not read."),
            GrammarKey("$ref", .shared("schemaRef"), "A model this schema is (see schemaRef)."),
            GrammarKey(
                "enum", .list(.any, unique: true),
                "The values of a Swift enum (strings, or integers with type: integer), where unknown values decode to `.unknown(raw)` (refused with sdk.yaml's models: { enums: closed }); any other list (mixed types, true, null, objects, arrays, empty) is a JSONValue checked against it."
            ),
            GrammarKey("const", .any, "The only value allowed; checked on decode."),
            GrammarKey(
                "format", .oneOf(KnownFormats.all),
                "date-time → Date, date → CalendarDate, uuid → UUID, uri → URL, byte → Data (base64); email, uri-reference, hostname, ipv4, ipv6 → String checked on decode and encode (documentation only with sdk.yaml's models: { formats: annotate }); password → String left out of the model's description; binary → String. On an integer int32 → Int32, int64 → Int64 (else Int); on a number float → Float, double → Double. A format of another type is an annotation; an unknown one an error (a note in a referenced document, or with models: { unknown: ignore })."
            ),
            GrammarKey("minLength", count, "Fewest characters. Checked on decode; 2 and 2.0 are the same count."),
            GrammarKey("maxLength", count, "Most characters. Checked on decode; 2 and 2.0 are the same count."),
            GrammarKey("minItems", count, "Fewest items. Checked on decode; 2 and 2.0 are the same count."),
            GrammarKey("maxItems", count, "Most items. Checked on decode; 2 and 2.0 are the same count."),
            GrammarKey(
                "pattern", .refined(.string(), [("format", .string("regex"))]),
                "A regular expression the string must match somewhere (not anchored). Checked on decode."),
            GrammarKey("minimum", .number(), "The value must be ≥ this number. Checked on decode."),
            GrammarKey("maximum", .number(), "The value must be ≤ this number. Checked on decode."),
            GrammarKey("exclusiveMinimum", .number(), "The value must be > this number. Checked on decode."),
            GrammarKey("exclusiveMaximum", .number(), "The value must be < this number. Checked on decode."),
            GrammarKey(
                "items", .shared("subschema"), "The schema of an array's items (after prefixItems); true allows any item, false none."),
            GrammarKey(
                "properties", .dictionary(values: .shared("subschema")),
                "The properties of an object: each becomes a Swift property (true: any value, false: must be absent)."),
            GrammarKey("required", .either([.string(), .list(.string())]), "The properties that must be present (a list, or one name)."),
            GrammarKey(
                "additionalProperties", .either([.boolean, .shared("schemaOrName")]),
                "Absent: undeclared properties are ignored. true or a schema: they are kept in `additionalProperties`. false: decoding fails on an undeclared property."
            ),
            GrammarKey(
                "unevaluatedProperties", .either([.boolean, .shared("schemaOrName")]),
                "The keys no properties, patternProperties or additionalProperties evaluated (here, in allOf members, $refs and the anyOf, oneOf, if or dependentSchemas branches that matched) must match it; false: there must be none. On an object or an allOf of objects, the additionalProperties of the composed struct. Checked on decode."
            ),
            GrammarKey(
                "oneOf", .list(.shared("subschema"), minimumCount: 1),
                "With `discriminator`: a choice of object models (a Swift enum with a case per variant and `unknown`). Without: a Swift enum with a case per schema; exactly one must match."
            ),
            GrammarKey(
                "allOf", .list(.shared("subschema")),
                "Object schemas merged into one struct (with properties and required beside it); members that are not all objects: a JSONValue checked by each."
            ),
            GrammarKey("discriminator", .mapping(discriminator), "Tells the variants of oneOf apart."),
            GrammarKey("$comment", .string(), "A comment for readers of the schema; read and ignored."),
            GrammarKey("$id", .string(), "An identifier `$ref` may use to name this schema (no remote schema is fetched)."),
            GrammarKey("$anchor", .string(pattern: "^[A-Za-z_][-A-Za-z0-9._]*$"), "A name `$ref: \"#name\"` may use for this schema."),
            GrammarKey(
                "$defs", .dictionary(values: .either([.boolean, .shared("schema")])),
                "Schemas declared beside this one: each is a model, named by its key, referred to as `#/Model/$defs/Name`."),
            GrammarKey("$schema", .string(), "The JSON Schema dialect; read and ignored."),
            GrammarKey("readOnly", .boolean, "An annotation; read and ignored."),
            GrammarKey("writeOnly", .boolean, "An annotation; read and ignored."),
            GrammarKey(
                "contentEncoding", .string(),
                "How a string encodes its content (base64, …): an annotation, read and ignored (the String is kept as sent)."),
            GrammarKey("contentMediaType", .string(), "The media type of a string's content: an annotation, read and ignored."),
            GrammarKey("contentSchema", .shared("subschema"), "The schema of a string's decoded content: an annotation, read and ignored."),
            GrammarKey(
                "anyOf", .list(.shared("subschema"), minimumCount: 1),
                "Without properties or type: a Swift enum with a case per schema, the first that matches wins. Beside them: checked on decode."
            ),
            GrammarKey("multipleOf", .number(exclusiveMinimum: 0), "The number must be a multiple of this. Checked on decode."),
            GrammarKey("uniqueItems", .boolean, "No two items equal (numbers by value). Checked on decode."),
            GrammarKey(
                "prefixItems", .list(.shared("subschema")),
                "A tuple: the schemas of the first items, in order (the Swift array holds JSONValue). Checked on decode."),
            GrammarKey(
                "unevaluatedItems", .either([.boolean, .shared("schemaOrName")]),
                "The items no prefixItems, items or contains evaluated (here, in allOf members, $refs and the anyOf, oneOf or if branches that matched) must match it; false: there must be none. Checked on decode."
            ),
            GrammarKey("contains", .shared("subschema"), "Some item must match (minContains of them, 1 by default). Checked on decode."),
            GrammarKey("minContains", count, "Fewest items matching contains. Checked on decode."),
            GrammarKey("maxContains", count, "Most items matching contains. Checked on decode."),
            GrammarKey("minProperties", count, "Fewest properties. Checked on decode."),
            GrammarKey("maxProperties", count, "Most properties. Checked on decode."),
            GrammarKey(
                "dependentRequired", .dictionary(values: .list(.string(), unique: true)),
                "When the key is present, the listed properties must be too. Checked on decode."),
            GrammarKey(
                "dependentSchemas", .dictionary(values: .shared("subschema")),
                "When the key is present, the object must also match the schema. Checked on decode."),
            GrammarKey("propertyNames", .shared("subschema"), "Every property name must match this schema. Checked on decode."),
            GrammarKey(
                "patternProperties", .dictionary(values: .shared("subschema")),
                "Schemas of the properties whose names match a regular expression. Checked on decode."),
            GrammarKey("not", .shared("subschema"), "The value must not match this schema. Checked on decode."),
            GrammarKey("if", .shared("subschema"), "When the value matches it, then applies; else else. Checked on decode."),
            GrammarKey("then", .shared("subschema"), "Applies when if matches. Checked on decode."),
            GrammarKey("else", .shared("subschema"), "Applies when if does not match. Checked on decode."),
        ],
        refused: unsupportedKeywords.map(\.keyword),
        extra: discriminatedVariants)

    /// Keywords of 2020-12 that Sesame refuses, each with its message: the reader lets them
    /// through and the model translator reports them at their position.
    static let unsupportedKeywords: [(keyword: String, message: String)] = [
        ("$dynamicRef", "$dynamicRef is not supported; use $ref to a model"),
        ("$dynamicAnchor", "$dynamicAnchor is not supported"),
        ("$recursiveRef", "$recursiveRef is not supported; use $ref to a model"),
    ]

    /// A parameter's schema: a schema that may add `secret: true`.
    static let parameterSchema = GrammarMapping(
        "parameter schema", "A parameter's schema.",
        keys: schema.keys + [GrammarKey("secret", .boolean, "Hides the value in descriptions and logs.")],
        refused: schema.refused, extra: schema.extra)

    static let discriminator = GrammarMapping(
        "discriminator", "Tells the variants of oneOf apart.",
        keys: [
            GrammarKey(
                "propertyName", .string(), missing: " needs a propertyName",
                "The property whose value tells the variant; each variant declares it required."),
            GrammarKey("mapping", .dictionary(values: .string()), "Tag → `#/Model`; without it a variant's tag is its model's name."),
        ])

    /// With a discriminator, each variant of oneOf is a `$ref` to an object model.
    private static let discriminatedVariants: [(String, OrderedJSON)] = [
        ("if", .object([("required", .array([.string("discriminator")]))])),
        (
            "then",
            .object([
                (
                    "properties",
                    .object([
                        (
                            "oneOf",
                            .object([
                                (
                                    "items",
                                    .object([
                                        ("description", .string("A variant: a $ref to an object model.")),
                                        ("type", .string("object")),
                                        (
                                            "properties",
                                            .object([
                                                ("$ref", .object([("$ref", .string("#/$defs/schemaRef"))])),
                                                ("description", .object([("$ref", .string("#/$defs/text"))])),
                                                ("title", .object([("$ref", .string("#/$defs/text"))])),
                                                ("deprecated", .object([("type", .string("boolean"))])),
                                                ("examples", .object([])),
                                            ])
                                        ),
                                        ("required", .array([.string("$ref")])),
                                        ("additionalProperties", .bool(false)),
                                    ])
                                )
                            ])
                        )
                    ])
                )
            ])
        ),
    ]
}
