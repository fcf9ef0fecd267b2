import Foundation
@_spi(Generated) import ReferenceSDK
import Testing
@_spi(Generated) import SesameDescription

/// The generated authentication methods (`SingleStepMethod`, `MultiStepMethod`) and the
/// values of a multi-step method's next step (`AuthenticationInput`), from Schema/auth.yaml.
@Suite struct GeneratedMethodTests {
    static let password = "Pa55-Zebra-Orchid-91!"
    static let token = "eyJhbGciOi.custom-token-Quokka-7"

    /// Every way Swift turns a value into text for a person: none may show a secret.
    static func renderings(of value: Any) -> [String: String] {
        var dumped = ""
        dump(value, to: &dumped)
        var dumpedInside = ""
        dump(["method": value], to: &dumpedInside)
        return [
            "description": "\(value)",
            "String(describing:)": String(describing: value),
            "String(reflecting:)": String(reflecting: value),
            "debugDescription": (value as? any CustomDebugStringConvertible)?.debugDescription ?? "",
            "dump": dumped,
            "dump inside a dictionary": dumpedInside,
            "in an array": String(describing: [value]),
            "in an optional": String(reflecting: Optional(value)),
            "Mirror children": Mirror(reflecting: value).children.map { "\($0.label ?? ""): \($0.value)" }.joined(),
        ]
    }

    @Test func passwordIsNeverShownInDescriptionsDebugDescriptionsOrDumps() {
        let method = SingleStepMethod.password(username: "ada", password: Self.password, scope: "profile notes")
        #expect(method.description == "password")
        #expect(method.debugDescription == "password")
        #expect(String(reflecting: method) == "password")
        #expect(Mirror(reflecting: method).children.isEmpty)
        for (rendering, text) in Self.renderings(of: method) {
            #expect(!text.contains(Self.password), "\(rendering) shows the password: \(text)")
            #expect(!text.contains("Zebra"), "\(rendering) shows part of the password: \(text)")
        }
        // The method's name still shows, so the renderings are not simply empty.
        for (rendering, text) in Self.renderings(of: method) where rendering != "Mirror children" {
            #expect(text.contains("password"), "\(rendering): \(text)")
        }
    }

    @Test func customTokenIsNeverShown() {
        let method = SingleStepMethod.custom(token: Self.token, provider: "acme")
        #expect(method.description == "custom")
        for (rendering, text) in Self.renderings(of: method) {
            #expect(!text.contains("Quokka"), "\(rendering) shows the token: \(text)")
        }
    }

    @Test func argumentsHoldTheValues() {
        let method = SingleStepMethod.password(username: "ada", password: Self.password, scope: "profile notes")
        #expect(method.arguments == ["username": .string("ada"), "password": .string(Self.password), "scope": .string("profile notes")])
        #expect(
            SingleStepMethod.custom(token: Self.token, provider: "acme").arguments == [
                "token": .string(Self.token), "provider": .string("acme"),
            ])
        #expect(SingleStepMethod.guest.arguments == [:])
        #expect(MultiStepMethod.internal(identifier: "ada@example.com").arguments == ["identifier": .string("ada@example.com")])
    }

    @Test func passwordScopeDefaultsToTheSchemasDefault() {
        let method = SingleStepMethod.password(username: "ada", password: Self.password)
        #expect(method.arguments["scope"] == .string("profile"))
    }

    @Test func eachMethodCarriesItsSchemaDescription() {
        #expect(SingleStepMethod.guest.methodDescription == ReferenceSDKSchema.Methods.guest)
        #expect(SingleStepMethod.password(username: "a", password: "b").methodDescription.name == "password")
        #expect(SingleStepMethod.custom(token: "t", provider: "p").methodDescription.steps.map(\.request.path) == ["/auth/custom"])
        let internalMethod = MultiStepMethod.internal(identifier: "ada@example.com").methodDescription
        #expect(internalMethod.isMultiStep)
        #expect(internalMethod.steps.map(\.name) == ["initialize", "continue"])
        #expect(internalMethod.steps[1].needs == ["code"])
        #expect(MultiStepMethod.internal(identifier: "ada@example.com").description == "internal")
    }

    // MARK: validate()

    @Test func identifierShorterThanThreeCharactersIsRejected() throws {
        let violation = try #require(Wire.violation { try MultiStepMethod.internal(identifier: "ab").validate() })
        #expect(violation.path == "$.identifier")
        #expect(violation.keyword == "minLength")
        #expect(violation.message == "expected at least 3 characters, found 2")
        try MultiStepMethod.internal(identifier: "abc").validate()
    }

    @Test(arguments: ["12", "12345", "1234567", "abcdef", "12345a", " 123456", ""])
    func codeNotMatchingItsPatternIsRejected(_ code: String) throws {
        let violation = try #require(Wire.violation { try AuthenticationInput.internalContinue(code: code).validate() })
        #expect(violation.path == "$.code")
        #expect(violation.keyword == "pattern")
    }

    @Test func aSixDigitCodeIsAccepted() throws {
        try AuthenticationInput.internalContinue(code: "123456").validate()
        try AuthenticationInput.internalContinue(code: "000000").validate()
    }

    /// ECMA-262 (JSON Schema's regex dialect): without the multiline flag `$` matches only
    /// at the end of the input, so "123456\n" does not match ^[0-9]{6}$.
    @Test func aCodeWithATrailingNewlineIsRejected() {
        #expect(throws: SchemaViolation.self) { try AuthenticationInput.internalContinue(code: "123456\n").validate() }
    }

    @Test func methodsWithoutConstraintsAcceptAnything() throws {
        try SingleStepMethod.guest.validate()
        try SingleStepMethod.password(username: "", password: "").validate()
        try SingleStepMethod.custom(token: "", provider: "").validate()
    }

    @Test func theInputNamesItsMethodAndStepAndHoldsItsValues() {
        let input = AuthenticationInput.internalContinue(code: "123456")
        #expect(input.methodName == "internal")
        #expect(input.stepName == "continue")
        #expect(input.values == ["code": .string("123456")])
        #expect(input.description == "internal.continue")
        #expect(String(reflecting: input) == "internal.continue")
        var dumped = ""
        dump(input, to: &dumped)
        #expect(!dumped.contains("123456"))
    }
}
