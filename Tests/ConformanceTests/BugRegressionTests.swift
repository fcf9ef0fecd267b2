import ConformanceSDK
import Foundation
import Sesame
import Testing

/// The four silent-acceptance bugs of issue 13, decoded through the generated fixture.
/// (The fourth, a `default` that breaks its own schema, is a generator diagnostic:
/// Tests/SesameGeneratorTests/KeywordDiagnosticTests.swift.)
@Suite struct BugRegressionTests {
    // Bug 1: `{ type: object }` with no properties.
    @Test(arguments: ["42", "\"x\"", "[]", "null", "true", "1.5"])
    func emptyObjectModelRefusesNonObjects(json: String) {
        #expect(!Instance.accepts(EmptyObject.self, json))
    }

    @Test func emptyObjectModelDecodesObjectsAndEncodesAsEmptyObject() throws {
        #expect(Instance.accepts(EmptyObject.self, "{}"))
        #expect(Instance.accepts(EmptyObject.self, #"{"anything": [1, 2]}"#))
        #expect(try Instance.encoded(EmptyObject()) == "{}")
    }

    // Bug 2: `required` without `type` applies to objects.
    @Test func requiredWithoutTypeRefusesObjectsMissingTheKeys() throws {
        let missingB = Instance.violation(RequiredOnly.self, #"{"a": 1}"#)
        #expect(missingB?.keyword == "required")
        #expect(missingB?.path == "$.b")
        #expect(Instance.violation(RequiredOnly.self, "{}")?.path == "$.a")
        #expect(Instance.accepts(RequiredOnly.self, #"{"a": null, "b": false}"#))
        // JSON Schema: required says nothing of values that are not objects.
        #expect(Instance.accepts(RequiredOnly.self, "42"))
        #expect(Instance.accepts(RequiredOnly.self, #""text""#))
    }

    // Bug 3: `const` compares numbers by value, and `const: null` accepts null.
    @Test func constComparesNumbersByValue() {
        #expect(Instance.accepts(ConstNegative.self, "-2"))
        #expect(Instance.accepts(ConstNegative.self, "-2.0"))
        #expect(Instance.violation(ConstNegative.self, "2")?.keyword == "const")
        #expect(Instance.violation(ConstNegative.self, #""-2""#)?.keyword == "const")
        #expect(Instance.accepts(ConstInteger.self, "-2"))
        #expect(Instance.accepts(ConstInteger.self, "-2.0"))
        #expect(Instance.violation(ConstInteger.self, "-3")?.keyword == "const")
    }

    @Test func constNullAcceptsOnlyNull() {
        #expect(Instance.accepts(ConstNull.self, "null"))
        #expect(Instance.violation(ConstNull.self, "0")?.keyword == "const")
        #expect(Instance.violation(ConstNull.self, #""null""#)?.keyword == "const")
        #expect(Instance.violation(ConstNull.self, "{}")?.keyword == "const")
    }
}
