import DecodeModels
import Foundation
import OpenAPIRuntime
import PeerDecodeModels

/// The payloads of `decode` and `encode` (issue 30): the JSON an app receives, built once
/// from fixed values, and how each side decodes it and encodes it back.
struct CodingPayload {
    /// One side's work on the payload's bytes.
    struct Side {
        /// Decodes the bytes; throws when they do not decode.
        var decode: (Data) throws -> Void
        /// Decodes the bytes once and returns an encoder of the value (what `encode` times).
        var encoder: (Data) throws -> () throws -> Data
    }

    var name: String
    var data: Data
    /// Decodes (or encodes) per timed run, so that a run of a small payload lasts long
    /// enough for the clock.
    var repeats: Int
    /// The models a decode yields, as allocations per model count them: the items of a list,
    /// or the one object.
    var models: Int
    /// The properties of one model stored in an `Indirect` box (a nested object), which the
    /// allocation target allows one allocation each.
    var boxesPerModel: Int
    /// Whether the models check keywords only the JSON shows (the 1.5× target, not 1.2×).
    var jsonOnlyKeywords: Bool
    var sesame: Side
    var codable: Side
    var peer: Side

    // MARK: The sides' coders

    static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// What swift-openapi-runtime's `Converter` sets up: dates through the configuration's
    /// transcoder (ISO 8601), as the peer's users decode them.
    static func peerDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        let transcoder = Configuration().dateTranscoder
        decoder.dateDecodingStrategy = .custom { decoder in
            try transcoder.decode(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }

    static func peerEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        let transcoder = Configuration().dateTranscoder
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try transcoder.encode(date))
        }
        return encoder
    }

    /// A side that decodes `Model` with `decoder` and encodes it with `encoder`.
    static func side<Model: Codable>(_ model: Model.Type, decoder: JSONDecoder, encoder: JSONEncoder) -> Side {
        Side(
            decode: { data in _ = try decoder.decode(Model.self, from: data) },
            encoder: { data in
                let value = try decoder.decode(Model.self, from: data)
                return { try encoder.encode(value) }
            })
    }

    static func sides<Sesame: Codable, Plain: Codable, Peer: Codable>(
        _ sesame: Sesame.Type, _ plain: Plain.Type, _ peer: Peer.Type
    ) -> (Side, Side, Side) {
        (
            side(Sesame.self, decoder: JSONDecoder(), encoder: JSONEncoder()),
            side(Plain.self, decoder: jsonDecoder(), encoder: jsonEncoder()),
            side(Peer.self, decoder: peerDecoder(), encoder: peerEncoder())
        )
    }

    // MARK: The payloads

    /// The six payloads: `notes` is the list of 10,000 notes.
    static func all(notes: Int = 10_000) throws -> [CodingPayload] {
        let encoder = jsonEncoder()
        encoder.outputFormatting = .sortedKeys
        let token = try encoder.encode(tokenValue)
        let user = try encoder.encode(userValue)
        let noteList = try encoder.encode(PlainModels.NoteList(notes: (0..<notes).map(note)))
        let entries = try encoder.encode(PlainModels.EntryList(entries: (0..<notes).map(entry)))
        var payloads: [CodingPayload] = []
        func add<S: Codable, P: Codable, O: Codable>(
            _ name: String, _ data: Data, repeats: Int, models: Int, boxes: Int, checked: Bool, _ s: S.Type, _ p: P.Type,
            _ o: O.Type
        ) {
            let (sesame, codable, peer) = sides(S.self, P.self, O.self)
            payloads.append(
                CodingPayload(
                    name: name, data: data, repeats: repeats, models: models, boxesPerModel: boxes, jsonOnlyKeywords: checked,
                    sesame: sesame, codable: codable, peer: peer))
        }
        add(
            "token", token, repeats: 20_000, models: 1, boxes: 0, checked: false, DecodeModels.TokenResponse.self,
            PlainModels.TokenResponse.self, Components.Schemas.TokenResponse.self)
        add(
            "user", user, repeats: 5_000, models: 1, boxes: 2, checked: false, DecodeModels.UserDetails.self,
            PlainModels.UserDetails.self, Components.Schemas.UserDetails.self)
        add(
            "notes", noteList, repeats: 1, models: notes, boxes: 1, checked: false, DecodeModels.NoteList.self,
            PlainModels.NoteList.self, Components.Schemas.NoteList.self)
        add(
            "notes-checked", noteList, repeats: 1, models: notes, boxes: 1, checked: true, DecodeModels.CheckedNoteList.self,
            PlainModels.NoteList.self, Components.Schemas.CheckedNoteList.self)
        add(
            "notes-ref-checked", noteList, repeats: 1, models: notes, boxes: 1, checked: true,
            DecodeModels.RefCheckedNoteList.self, PlainModels.NoteList.self, Components.Schemas.RefCheckedNoteList.self)
        add(
            "unions", entries, repeats: 1, models: notes, boxes: 0, checked: false, DecodeModels.EntryList.self,
            PlainModels.EntryList.self, Components.Schemas.EntryList.self)
        return payloads
    }

    static let epoch = 1_700_000_000.0

    static let tokenValue = PlainModels.TokenResponse(
        access_token: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIiwiZXhwIjoxNzAwMDAzNjAwfQ.c2lnbmF0dXJl",
        token_type: "Bearer", expires_in: 3600, refresh_token: "def50200a1b2c3d4e5f6", scope: nil)

    static let userValue = PlainModels.UserDetails(
        uid: "user-42", provider: .password, displayName: "Ada Lovelace", createdAt: Date(timeIntervalSince1970: epoch),
        address: PlainModels.Address(street: "12 Analytical Row", city: "London", postalCode: "W1 2AB", country: "GB"),
        billing: PlainModels.Address(street: nil, city: "Paris", postalCode: "75001", country: "FR"),
        identities: (0..<3).map { index in
            PlainModels.Identity(
                provider: index == 0 ? .password : .custom, providerUID: "provider-uid-\(index)",
                attachedAt: Date(timeIntervalSince1970: epoch + Double(index) * 86_400))
        },
        isAnonymous: false)

    static func note(_ index: Int) -> PlainModels.Note {
        let statuses: [PlainModels.Status] = [.draft, .published, .archived]
        return PlainModels.Note(
            id: "note-\(index)", title: "Note number \(index)",
            body: "Remember to water the plants, call the bank and buy milk (\(index)).",
            status: statuses[index % 3], createdAt: Date(timeIntervalSince1970: epoch + Double(index) * 61),
            updatedAt: index % 2 == 0 ? Date(timeIntervalSince1970: epoch + Double(index) * 61 + 3600) : nil,
            author: PlainModels.Author(id: "user-\(index % 17)", name: "Author \(index % 17)"),
            tags: index % 4 == 0 ? [] : ["home", "todo", "tag-\(index % 9)"].prefix(index % 4).map { $0 },
            pinned: index % 5 == 0, rating: index % 3 == 0 ? nil : index % 6)
    }

    static func entry(_ index: Int) -> PlainModels.Entry {
        let block: PlainModels.Block =
            index % 2 == 0
            ? .text(PlainModels.TextBlock(text: "Paragraph \(index)", bold: index % 4 == 0 ? true : nil))
            : .image(PlainModels.ImageBlock(url: "https://img.example.com/\(index).png", width: 640, height: 480))
        return PlainModels.Entry(block: block, value: index % 3 == 0 ? .string("v\(index)") : .integer(index))
    }
}
