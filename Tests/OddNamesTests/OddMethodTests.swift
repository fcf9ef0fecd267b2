import Foundation
import OddNamesSDK
@_spi(Generated) import Sesame
import Testing

/// Authentication methods, steps, needs and parameters named with keywords: their
/// arguments are sent under the schema's names, and the step bodies keep their odd keys.
@Suite struct OddMethodTests {
    @Test func aMethodNamedClassSendsItsKeywordParametersUnderTheirNames() {
        let method = SingleStepMethod.class(self: "s", in: 2, `_`: "secret")
        #expect(method.arguments == ["self": .string("s"), "in": .integer(2), "_": .string("secret")])
        #expect(method.description == "class")
        #expect(!String(reflecting: method).contains("secret"))
        let step = method.methodDescription.steps[0]
        #expect(step.request.path == #"/auth/"class"/café"#)
        #expect(step.body.map(\.name).map(WireKeys.scalars) == ["quote\"d", "back\\slash", "line\nbreak", "名前"].map(WireKeys.scalars))
        #expect(step.body.last?.value == .literal(.string(#"""" \(self) */"#)))
        #expect(SingleStepMethod.class(self: "s", `_`: "t").arguments["in"] == .integer(1))
    }

    @Test func aMethodNamedDescriptionIsRenamedButKeepsItsName() {
        #expect(SingleStepMethod.descriptionMethod.description == "description")
        #expect(SingleStepMethod.descriptionMethod.methodDescription.name == "description")
    }

    @Test func stepsAndNeedsNamedWithKeywordsKeepTheirNames() throws {
        let method = MultiStepMethod.protocol(type: "t")
        #expect(method.arguments == ["Type": .string("t")])
        #expect(method.methodDescription.steps.map(\.name) == ["init", "default"])
        let last = try #require(method.methodDescription.steps.last)
        #expect(last.needs == ["self", "_"])
        #expect(last.body.map(\.name) == ["*/", "#endif", "$0"])
        #expect(
            last.body.map(\.value) == [
                .variable(.stepOutput(step: "init", path: ["class"])), .variable(.parameter("self")), .variable(.parameter("_")),
            ])

        let input = AuthenticationInput.protocolDefault(self: "\"abc\\")
        #expect(input.methodName == "protocol")
        #expect(input.stepName == "default")
        #expect(input.values == ["self": .string("\"abc\\"), "_": .bool(false)])
        try input.validate()
        #expect(throws: SchemaViolation.self) { try AuthenticationInput.protocolDefault(self: "abc").validate() }
    }
}
