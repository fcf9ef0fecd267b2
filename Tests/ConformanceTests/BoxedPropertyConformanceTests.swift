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
        #expect(Self.children(to).contains { $0.label == "city" && ($0.value as? String) == "Paris" })
    }

    /// The labelled children a walk of mirrors reaches from `value`, at any depth.
    static func children(_ value: Any) -> [Mirror.Child] {
        Mirror(reflecting: value).children.flatMap { [$0] + children($0.value) }
    }

    /// A change through a boxed property (`parcel.manifest.lines.append`) is made in place
    /// when nothing else holds the value: the array keeps its buffer. With a copy of the
    /// model alive, it copies instead, and the copy does not see the change.
    @Test func changesThroughTheBoxAreMadeInPlace() throws {
        var parcel = Parcel(to: Address(city: "Paris"), box: Parcel.Box(grams: 1), manifest: Parcel.Manifest(lines: []))
        parcel.manifest!.lines.reserveCapacity(1_000)
        let buffer = { (parcel: Parcel) in parcel.manifest!.lines.withUnsafeBufferPointer { $0.baseAddress } }
        let reserved = try #require(buffer(parcel))
        for index in 0..<500 { parcel.manifest!.lines.append("line \(index)") }
        #expect(buffer(parcel) == reserved)
        parcel.to.city = "Nice"
        parcel.manifest?.lines[0] = "first"
        #expect(buffer(parcel) == reserved)
        #expect(parcel.manifest?.lines.count == 500)
        #expect(parcel.manifest?.lines.first == "first")

        let copy = parcel
        parcel.manifest!.lines.append("after the copy")
        #expect(buffer(parcel) != reserved)
        #expect(buffer(copy) == reserved)
        #expect(copy.manifest?.lines.count == 500)
        #expect(parcel.manifest?.lines.count == 501)
        #expect(copy.to.city == "Nice")
    }

    /// A change that throws half way leaves the property holding the value as changed so far,
    /// never empty: `_modify` stores the value back however the access ends.
    @Test func aChangeThatThrowsLeavesTheValueInItsBox() {
        struct Stop: Error {}
        var parcel = Parcel(to: Address(city: "Paris"), box: Parcel.Box(grams: 1))
        func rename(_ address: inout Address) throws {
            address.city = "Lille"
            throw Stop()
        }
        #expect(throws: Stop.self) { try rename(&parcel.to) }
        #expect(parcel.to.city == "Lille")
        #expect(parcel.manifest == nil)
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
