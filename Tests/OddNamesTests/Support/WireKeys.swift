import Foundation
import Sesame

/// JSON built from and read back into exact strings: keys are compared scalar for scalar
/// (so byte for byte in UTF-8), never with `String` equality, which treats `é` and
/// `e\u{301}` as the same.
enum WireKeys {
    /// The JSON bytes of an object with these members, written by `JSONSerialization`, not by
    /// the generated code under test.
    static func object(_ members: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])
    }

    /// The keys of a JSON object, each as its Unicode scalars.
    static func keys(of data: Data) throws -> Set<[UInt32]> {
        let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
        return Set(object.keys.map(scalars))
    }

    /// The members of a JSON object keyed by their scalars.
    static func members(of data: Data) throws -> [[UInt32]: JSONValue] {
        let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
        return Dictionary(uniqueKeysWithValues: object.map { (scalars($0.key), $0.value) })
    }

    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }
}
