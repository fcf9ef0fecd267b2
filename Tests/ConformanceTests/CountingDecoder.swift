import Foundation
import Synchronization

/// A decoder over another that counts the errors its containers throw: each is an attempt
/// that failed (a variant of a choice that did not match, with its `DecodingError` built).
/// Only the decoder given to the top-level value and its containers are counted; the values
/// inside them are decoded by the decoder underneath.
struct CountingDecoder: Decoder {
    /// The count, shared by a decoder and its containers.
    final class Failures: Sendable {
        private let count = Mutex(0)

        var value: Int { count.withLock { $0 } }

        /// Runs `body`, counting the error it throws.
        func counted<Value>(_ body: () throws -> Value) throws -> Value {
            do {
                return try body()
            } catch {
                count.withLock { $0 += 1 }
                throw error
            }
        }
    }

    /// Decodes `Model` from `json` through a counting decoder.
    /// - Returns: the model, or the error it threw, and the failures counted.
    static func decode<Model: Decodable>(_ model: Model.Type, _ json: String) -> (Result<Model, any Error>, failures: Int) {
        let failures = Failures()
        let decoder = JSONDecoder()
        decoder.userInfo[Top<Model>.failuresKey] = failures
        let result = Result { try decoder.decode(Top<Model>.self, from: Data(json.utf8)).model }
        return (result, failures.value)
    }

    /// The top-level value: gives the model a counting decoder.
    private struct Top<Model: Decodable>: Decodable {
        static var failuresKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "failures")! }
        var model: Model

        init(from decoder: any Decoder) throws {
            let failures = decoder.userInfo[Self.failuresKey] as! Failures
            model = try Model(from: CountingDecoder(base: decoder, failures: failures))
        }
    }

    let base: any Decoder
    let failures: Failures

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CountingKeyedContainer(base: try failures.counted { try base.container(keyedBy: type) }, failures: failures))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try failures.counted { try base.unkeyedContainer() }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CountingSingleValueContainer(base: try failures.counted { try base.singleValueContainer() }, failures: failures)
    }
}
