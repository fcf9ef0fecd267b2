import ConformanceSDK
import Foundation
import Sesame
import Testing

/// A property holding an object model is stored behind a reference (docs/format.md, "Object
/// properties are stored behind a reference"), but reads, writes, compares, hashes, decodes
/// and encodes as the struct it holds: copies stay independent.
@Suite struct BoxedPropertyConformanceTests {
    static let json = #"{"to": {"city": "Paris"}, "from": {"city": "Lyon"}, "box": {"grams": 250}}"#

    @Test func decodesChecksAndEncodesTheHeldObject() throws {
        let parcel = try Instance.decode(Parcel.self, Self.json)
        #expect(parcel.to == Address(city: "Paris"))
        #expect(parcel.from?.city == "Lyon")
        #expect(parcel.box.grams == 250)
        // The held object is checked where it is: its path and keyword.
        let violation = Instance.violation(Parcel.self, #"{"to": {"city": "Paris"}, "box": {"grams": 0}}"#)
        #expect(violation?.path == "$.box.grams")
        #expect(violation?.keyword == "minimum")
        #expect(!Instance.accepts(Parcel.self, #"{"to": {}, "box": {"grams": 1}}"#))
        #expect(!Instance.accepts(Parcel.self, #"{"box": {"grams": 1}}"#))
        #expect(!Instance.accepts(Parcel.self, #"{"to": {"city": "Paris"}, "from": null, "box": {"grams": 1}}"#))
        let again = try Instance.decode(Parcel.self, try Instance.encoded(parcel))
        #expect(again == parcel)
    }

    @Test func copiesAreIndependentValues() throws {
        let original = try Instance.decode(Parcel.self, Self.json)
        var copy = original
        #expect(copy == original)
        copy.to.city = "Nice"
        copy.from?.city = "Brest"
        copy.box.grams += 1
        #expect(original.to.city == "Paris")
        #expect(original.from?.city == "Lyon")
        #expect(original.box.grams == 250)
        #expect(copy.to.city == "Nice")
        #expect(copy.from?.city == "Brest")
        #expect(copy.box.grams == 251)
        #expect(copy != original)
        copy.from = nil
        #expect(copy.from == nil)
        #expect(try Instance.encoded(copy).contains("from") == false)
    }

    /// `print`, `dump` and `Mirror` (the secret scans of the end-to-end tests walk mirrors)
    /// see the nested model's fields, not an opaque box.
    @Test func printingAndReflectionSeeTheHeldObject() throws {
        let parcel = try Instance.decode(Parcel.self, Self.json)
        #expect(String(describing: parcel).contains("Paris"))
        #expect(String(reflecting: parcel).contains("Lyon"))
        var dumped = ""
        dump(parcel, to: &dumped)
        #expect(dumped.contains("250"))
        let to = try #require(Mirror(reflecting: parcel).children.first { $0.label == "_to" }?.value)
        #expect(Mirror(reflecting: to).children.contains { $0.label == "city" && ($0.value as? String) == "Paris" })
    }

    @Test func equalValuesInSeparateBoxesAreEqualAndHashAlike() throws {
        let decoded = try Instance.decode(Parcel.self, Self.json)
        let built = Parcel(to: Address(city: "Paris"), from: Address(city: "Lyon"), box: Parcel.Box(grams: 250))
        #expect(decoded == built)
        #expect(Set([decoded, built]).count == 1)
        var changed = built
        changed.to = Address(city: "Paris ")
        #expect(changed != built)
        #expect(Set([decoded, built, changed]).count == 2)
    }
}
