import Testing
@testable import SesameGenerator
@_spi(Generated) import SesameDescription

/// Small YAML in, the exact Swift it must produce out.
@Suite struct SnippetTests {
    private func model(_ yaml: String, file: String) -> String {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return Fixture.model(file, in: generation)
    }

    @Test func stringEnumKeepsUnknownValues() {
        let swift = model("Color: { type: string, enum: [red, dark-blue, unknown] }", file: "Color")
        #expect(
            swift.contains(
                """
                public enum Color: Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
                    case red
                    case darkBlue
                    case unknownValue
                    /// A value this version of the SDK does not know, kept as received.
                    case unknown(String)
                """))
        #expect(swift.contains("case \"dark-blue\": self = .darkBlue"))
        #expect(swift.contains("default: self = .unknown(rawValue)"))
    }

    @Test func optionalDefaultAndNullableProperties() {
        let swift = model(
            """
            Profile:
              type: object
              required: [name, nickname]
              properties:
                name: { type: string, maxLength: 10 }
                nickname: { type: [string, "null"] }
                age: { type: integer }
                active: { type: boolean, default: true }
            """, file: "Profile")
        #expect(swift.contains("public var name: String\n"))
        #expect(swift.contains("public var nickname: String?\n"))
        #expect(swift.contains("public var age: Int?\n"))
        #expect(swift.contains("public var active: Bool\n"))
        #expect(swift.contains("public init(name: String, nickname: String? = nil, age: Int? = nil, active: Bool = true)"))
        // Required and nullable: the key must be present, its value may be null.
        #expect(swift.contains("self.nickname = try container.decode(String?.self, forKey: \"nickname\")"))
        // Optional, not nullable: absent takes the default, null is refused.
        #expect(swift.contains("self.active = try container.decodeIfPresentNotNull(Bool.self, forKey: \"active\") ?? true"))
        #expect(swift.contains("self.age = try container.decodeIfPresentNotNull(Int.self, forKey: \"age\")"))
        #expect(
            swift.contains("try ModelCoding.length(self.name, min: nil, max: 10, codingPath: container.codingPath(appending: \"name\"))"))
        #expect(swift.contains("try container.encode(self.nickname, forKey: \"nickname\")"))
    }

    @Test func formatsDecodeThroughWireTypes() {
        let swift = model(
            """
            Meeting:
              type: object
              required: [at, id]
              properties:
                at: { type: string, format: date-time }
                id: { type: string, format: uuid }
                link: { type: string, format: uri }
                day: { type: string, format: date }
                times: { type: array, items: { type: string, format: date-time } }
            """, file: "Meeting")
        #expect(swift.contains("public var at: Date\n"))
        #expect(swift.contains("public var id: UUID\n"))
        #expect(swift.contains("public var link: URL?\n"))
        #expect(swift.contains("public var day: CalendarDate?\n"))
        #expect(swift.contains("public var times: [Date]?\n"))
        #expect(swift.contains("self.at = try container.decode(DateTimeValue.self, forKey: \"at\").value"))
        #expect(
            swift.contains(
                "self.times = (try container.decodeIfPresentNotNull([DateTimeValue].self, forKey: \"times\")).map { $0.map { $0.value } }"
            )
        )
    }

    @Test func namesFromTheSchemaCannotInjectCode() {
        let swift = model(
            #"""
            "Weird\"Name */":
              description: "Ends a comment */ and a \"string\nsecond line"
              type: object
              properties:
                "class": { type: string, description: "*/ print(\"pwned\") /*" }
                "a\"b\\c": { type: integer }
                "héllo wörld": { type: string }
                "2fa": { type: boolean }
            """#, file: "WeirdName")
        #expect(swift.contains("public struct WeirdName: Codable, Hashable, Sendable {"))
        #expect(swift.contains("/// Ends a comment * / and a \"string\n/// second line"))
        #expect(swift.contains("public var `class`: String?"))
        #expect(swift.contains("/// * / print(\"pwned\") / *"))
        #expect(swift.contains(#"self.aBC = try container.decodeIfPresentNotNull(Int.self, forKey: "a\"b\\c")"#))
        #expect(swift.contains("public var héllo Wörld") == false)
        #expect(swift.contains("public var hélloWörld: String?"))
        #expect(swift.contains("public var _2fa: Bool?"))
    }

    /// A property holding an object model keeps its type and API but stores the object behind
    /// a reference (`Indirect`), so no model holds a whole chain of others by value; enums,
    /// arrays and scalars stay stored in place.
    @Test func objectPropertiesAreStoredBehindAReference() {
        let swift = model(
            """
            Order:
              type: object
              required: [buyer]
              properties:
                buyer: { $ref: "#/User" }
                seller: { $ref: "#/User" }
                shipping: { type: object, properties: { city: { type: string } } }
                status: { type: string, enum: [open, closed] }
                lines: { type: array, items: { $ref: "#/User" } }
            """, file: "Order")
        #expect(
            swift.contains(
                """
                    public var buyer: User {
                        get { _buyer!.value }
                        set { _buyer = Indirect(newValue) }
                        _modify {
                            var value = Indirect.take(&_buyer)!
                            defer { _buyer = Indirect(value) }
                            yield &value
                        }
                    }
                    private var _buyer: Indirect<User>?
                """))
        #expect(
            swift.contains(
                """
                    public var seller: User? {
                        get { Indirect.unwrap(_seller) }
                        set { _seller = Indirect.wrap(newValue) }
                        _modify {
                            var value = Indirect.take(&_seller)
                            defer { _seller = Indirect.wrap(value) }
                            yield &value
                        }
                    }
                    private var _seller: Indirect<User>?
                """))
        #expect(swift.contains("private var _shipping: Indirect<Order.Shipping>?\n"))
        #expect(swift.contains("public var status: Order.Status?\n"))
        #expect(swift.contains("public var lines: [User]?\n"))
        // The initializer and the decoder take and store the value; the API is unchanged.
        #expect(swift.contains("public init(buyer: User, seller: User? = nil, shipping: Order.Shipping? = nil,"))
        #expect(swift.contains("self._buyer = Indirect(buyer)"))
        #expect(swift.contains("self._seller = Indirect.wrap(seller)"))
        #expect(swift.contains("self._seller = Indirect.wrap(try container.decodeIfPresentNotNull(User.self, forKey: \"seller\"))"))
        #expect(swift.contains("try container.encode(self.buyer, forKey: \"buyer\")"))
    }

    @Test func discriminatedUnionBecomesAnEnum() {
        let swift = model(
            """
            Shape:
              oneOf: [ { $ref: "#/Circle" }, { $ref: "#/Square" } ]
              discriminator: { propertyName: kind, mapping: { circle: "#/Circle", square: "#/Square" } }
            Circle: { type: object, required: [kind, radius], properties: { kind: { type: string, const: circle }, radius: { type: number } } }
            Square: { type: object, required: [kind, side], properties: { kind: { type: string, const: square }, side: { type: number } } }
            """, file: "Shape")
        #expect(swift.contains("case circle(Circle)"))
        #expect(swift.contains("case square(Square)"))
        #expect(swift.contains("case unknown(kind: String, value: JSONValue)"))
        #expect(swift.contains("case \"circle\": self = .circle(try Circle(from: decoder))"))
    }

    @Test func onlyAChoiceCaseThatCanHoldTheChoiceIsIndirect() {
        let swift = model(
            """
            Tree: { oneOf: [ { type: integer }, { $ref: "#/Leaf" }, { $ref: "#/Branch" } ] }
            Leaf: { type: object, required: [value], properties: { value: { type: string } } }
            Branch: { type: object, required: [left], properties: { left: { $ref: "#/Tree" } } }
            """, file: "Tree")
        #expect(swift.contains("public enum Tree: Codable"))
        #expect(swift.contains("\n    case integer(Int)\n"))
        #expect(swift.contains("\n    case leaf(Leaf)\n"))
        #expect(swift.contains("\n    indirect case branch(Branch)\n"))
        // Every variant is tried (a value matching two is refused), counted, the first kept.
        #expect(swift.contains("matches += 1"))
        #expect(!swift.contains("[Tree]"))
    }

    /// Issue 30, part 3: a choice reads the value's keys once and skips, undecoded, a
    /// variant that cannot match: an object lacking a name its decoding requires (a required
    /// property without a default, nullable or not, or a name `required` only in its check),
    /// anything but an object for an object variant, an object for a string or an array.
    @Test func aChoiceSkipsAVariantTheKeysRuleOut() {
        let swift = model(
            """
            Pick:
              oneOf:
                - { $ref: "#/Card" }
                - { type: object, required: [iban] }
                - { type: string }
                - { type: array, items: { type: integer } }
                - { type: object, additionalProperties: { type: string } }
            Card:
              type: object
              required: [number, holder, size]
              properties:
                number: { type: string }
                holder: { type: [string, "null"] }
                size: { type: integer, default: 1 }
                note: { type: string }
            """, file: "Pick")
        #expect(swift.contains("let keys = try? decoder.container(keyedBy: PropertyKey.self)\n"))
        #expect(
            swift.contains(
                "if let keys, keys.contains(\"number\"), keys.contains(\"holder\"), let value = failures.attempt({ try Card(from: decoder) })"
            ))
        #expect(swift.contains("if let keys, keys.contains(\"iban\"), let value = failures.attempt({ try Pick.Option2(from: decoder) })"))
        #expect(swift.contains("if keys == nil, let value = failures.attempt({ try decoder.singleValueContainer().decode(String.self) })"))
        #expect(swift.contains("if keys == nil, let value = failures.attempt({ try decoder.singleValueContainer().decode([Int].self) })"))
        // A dictionary takes any object: always decoded.
        #expect(swift.contains("if let value = failures.attempt({ try decoder.singleValueContainer().decode([String: String].self) })"))
        // anyOf tries its first variant as it is; the keys are read only when it did not match.
        let anyOf = model(
            """
            Either:
              anyOf: [{ $ref: "#/Card" }, { $ref: "#/Card2" }]
            Card: { type: object, required: [number], properties: { number: { type: string } } }
            Card2: { type: object, required: [iban], properties: { iban: { type: string } } }
            """, file: "Either")
        #expect(anyOf.contains("if match == nil, let value = failures.attempt({ try Card(from: decoder) })"))
        #expect(anyOf.contains("let keys = match == nil ? (try? decoder.container(keyedBy: PropertyKey.self)) : nil"))
        #expect(
            anyOf.contains("if match == nil, let keys, keys.contains(\"iban\"), let value = failures.attempt({ try Card2(from: decoder) })")
        )
        // Nothing to rule out (no required name, no two shapes): no keys read.
        let plain = model("Loose: { anyOf: [{ type: string }, { type: integer }] }", file: "Loose")
        #expect(!plain.contains("keys"))
    }

    @Test func allOfMergesProperties() {
        let swift = model(
            """
            Base: { type: object, required: [id], properties: { id: { type: string } } }
            Named: { allOf: [ { $ref: "#/Base" }, { type: object, required: [name], properties: { name: { type: string } } } ] }
            """, file: "Named")
        #expect(swift.contains("public init(id: String, name: String)"))
    }

    @Test func additionalPropertiesKeptOrRejected() {
        let kept = model(
            "Bag: { type: object, properties: { a: { type: integer } }, additionalProperties: { type: integer } }", file: "Bag")
        #expect(kept.contains("public var additionalProperties: [String: Int]"))
        let strict = model("Strict: { type: object, properties: { a: { type: integer } }, additionalProperties: false }", file: "Strict")
        #expect(strict.contains("keyword: \"additionalProperties\""))
    }

    /// Models share the runtime's `PropertyKey`, written as string literals, instead of each
    /// declaring a `CodingKeys` enum (a cost in every clean build: docs/performance.md); the
    /// names of declared properties, for `additionalProperties`, are a set literal.
    @Test func propertiesAreKeyedByStringLiterals() {
        let bag = model(
            "Bag: { type: object, properties: { a: { type: integer, minimum: 1 }, \"b-c\": { type: string } }, additionalProperties: { type: integer } }",
            file: "Bag")
        #expect(!bag.contains("CodingKeys"))
        #expect(bag.contains("let container = try decoder.container(keyedBy: PropertyKey.self)"))
        #expect(bag.contains("self.a = try container.decodeIfPresentNotNull(Int.self, forKey: \"a\")"))
        #expect(bag.contains("self.bC = try container.decodeIfPresentNotNull(String.self, forKey: \"b-c\")"))
        #expect(bag.contains("try ModelCoding.range(value, minimum: 1.0, codingPath: container.codingPath(appending: \"a\"))"))
        #expect(bag.contains("let known: Set<String> = [\"a\", \"b-c\"]"))
        #expect(bag.contains("var container = encoder.container(keyedBy: PropertyKey.self)"))
        #expect(bag.contains("try container.encodeIfPresent(self.bC, forKey: \"b-c\")"))
        let empty = model("Empty: { type: object, additionalProperties: false }", file: "Empty")
        #expect(empty.contains("_ = try decoder.container(keyedBy: PropertyKey.self)"))
        #expect(empty.contains("let known: Set<String> = []"))
    }

    @Test func operationWithPathQueryAndBody() {
        let auth =
            Fixture.auth + """

                  update:
                    request: PUT /users/{id}/notes
                    parameters:
                      id: { in: path, schema: { type: string } }
                      limit: { in: query, schema: { type: integer, minimum: 1 } }
                    body: User
                    response: { type: array, items: { $ref: "#/User" } }
                """
        let generation = Fixture.generate(["auth.yaml": auth])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let swift = Fixture.file("Operations.swift", in: generation)
        #expect(swift.contains("public func update(_ body: User, id: String, limit: Int? = nil) async throws -> [User] {"))
        #expect(swift.contains("try ModelCoding.range(value, minimum: 1.0, codingPath: [AnyCodingKey(\"limit\")])"))
        #expect(
            swift.contains(
                "let request = OperationRequest(TestSDKSchema.Requests.update, pathParameters: [\"id\": id], query: [(\"limit\", limit.map { String($0) })], body: try RequestBody.checkedJSON(body))"
            ))
    }

    /// Models hoisted from an operation's inline schema box their object properties too.
    @Test func hoistedInlineSchemasStoreObjectsBehindAReference() {
        let auth =
            Fixture.auth + """

                  whoami:
                    request: GET /whoami
                    response: { type: object, required: [user], properties: { user: { $ref: "#/User" } } }
                """
        let generation = Fixture.generate(["auth.yaml": auth])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let hoisted = generation.files.first { $0.contents.contains("private var _user: Indirect<User>?\n") }
        #expect(hoisted != nil, "\(generation.files.map(\.path))")
    }

    @Test func secretArgumentsNeverReachDescriptions() {
        let auth =
            Fixture.auth + """

                methods:
                  password:
                    parameters: { user: { type: string }, password: { type: string, secret: true } }
                    steps: [ { request: POST /token, encoding: form, clientAuthentication: basic, body: { grant_type: password, username: "{user}", password: "{password}" }, response: Token } ]
                """
        let generation = Fixture.generate(["auth.yaml": auth])
        let swift = Fixture.file("Methods.swift", in: generation)
        #expect(swift.contains("case .password: return \"password\""))
        #expect(swift.contains("public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }"))
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains(#"name: "password.authenticate","#))
        #expect(schema.contains(#"TemplateField(name: "grant_type", value: .literal(.string("password")))"#))
        #expect(schema.contains(#"TemplateField(name: "password", value: .variable(.parameter("password")))"#))
    }
}
