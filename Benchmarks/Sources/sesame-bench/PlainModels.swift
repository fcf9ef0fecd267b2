import Foundation

/// What an app developer would write by hand for the JSON of `decode` and `encode`'s
/// payloads (issue 30): plain structs with synthesized `Codable`, decoded by `JSONDecoder`
/// with `.iso8601` dates. The floor the generated models are measured against.
enum PlainModels {
    struct TokenResponse: Codable {
        var access_token: String
        var token_type: String
        var expires_in: Int?
        var refresh_token: String?
        var scope: String?
    }

    enum Provider: String, Codable { case guest, `internal`, password, custom }

    struct Address: Codable {
        var street: String?
        var city: String
        var postalCode: String?
        var country: String
    }

    struct Identity: Codable {
        var provider: Provider
        var providerUID: String
        var attachedAt: Date?
    }

    struct UserDetails: Codable {
        var uid: String
        var provider: Provider
        var displayName: String?
        var createdAt: Date?
        var address: Address?
        var billing: Address?
        var identities: [Identity]
        var isAnonymous: Bool?
    }

    struct Author: Codable {
        var id: String
        var name: String
    }

    enum Status: String, Codable { case draft, published, archived }

    struct Note: Codable {
        var id: String
        var title: String
        var body: String
        var status: Status
        var createdAt: Date
        var updatedAt: Date?
        var author: Author
        var tags: [String]
        var pinned: Bool
        var rating: Int?
    }

    struct NoteList: Codable { var notes: [Note] }

    struct TextBlock: Codable {
        var text: String
        var bold: Bool?
    }

    struct ImageBlock: Codable {
        var url: String
        var width: Int
        var height: Int
    }

    /// A `oneOf` as one writes it by hand: the first shape that decodes.
    enum Block: Codable {
        case text(TextBlock)
        case image(ImageBlock)

        init(from decoder: any Decoder) throws {
            if let text = try? TextBlock(from: decoder) {
                self = .text(text)
            } else {
                self = .image(try ImageBlock(from: decoder))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .text(let value): try value.encode(to: encoder)
            case .image(let value): try value.encode(to: encoder)
            }
        }
    }

    /// An `anyOf` of an integer and a string.
    enum Value: Codable {
        case integer(Int)
        case string(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .integer(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            }
        }
    }

    struct Entry: Codable {
        var block: Block
        var value: Value
    }

    struct EntryList: Codable { var entries: [Entry] }
}
