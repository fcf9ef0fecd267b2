import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// `GET /notes` and `POST /notes`.
@Suite struct NotesTests {
    @Test func createdNotesComeBackInOrderAndPerUser() async throws {
        try await Harness.run { h in
            let alice = try await h.password()
            let created = try await h.sendJSON(.post, "/notes", #"{"text":"first","pinned":true}"#, token: alice.access)
            #expect(created.status == .created)
            let note = try created.object()
            #expect(UUID(uuidString: note["id"] as? String ?? "") != nil)
            #expect(note["text"] as? String == "first")
            #expect(note["pinned"] as? Bool == true)
            #expect(note["createdAt"] as? String == "2025-06-15T15:06:40Z")
            let second = try await h.sendJSON(.post, "/notes", #"{"text":"second"}"#, token: alice.access).object()
            #expect(second["pinned"] as? Bool == false)

            let list = try await h.sendAuthorized(.get, "/notes", token: alice.access).array()
            #expect(list.compactMap { ($0 as? [String: Any])?["text"] as? String } == ["first", "second"])

            let bob = try await h.password("bob", "builder")
            #expect(try await h.sendAuthorized(.get, "/notes", token: bob.access).array().isEmpty)
        }
    }

    @Test func listFiltersByPinnedAndLimit() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            for (text, pinned) in [("a", true), ("b", false), ("c", true)] {
                _ = try await h.sendJSON(.post, "/notes", #"{"text":"\#(text)","pinned":\#(pinned)}"#, token: tokens.access)
            }
            func texts(_ query: String) async throws -> [String] {
                try await h.sendAuthorized(.get, "/notes\(query)", token: tokens.access).array()
                    .compactMap { ($0 as? [String: Any])?["text"] as? String }
            }
            #expect(try await texts("?pinned=true") == ["a", "c"])
            #expect(try await texts("?pinned=false") == ["b"])
            #expect(try await texts("?limit=2") == ["a", "b"])
            #expect(try await texts("?limit=1&pinned=true") == ["a"])
        }
    }

    @Test(arguments: ["?limit=0", "?limit=101", "?limit=x", "?pinned=yes"])
    func badQueryIsInvalidRequest(query: String) async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let result = try await h.sendAuthorized(.get, "/notes\(query)", token: tokens.access)
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_request")
        }
    }

    @Test(arguments: ["{\"text\":", "{}", #"{"pinned":true}"#, #"{"text":""}"#, #"{"text":7}"#, #"{"text":"x","pinned":"yes"}"#, ""])
    func badNoteIsInvalidRequest(body: String) async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let result = try await h.sendJSON(.post, "/notes", body, token: tokens.access)
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_request")
            #expect(try result.object()["error_description"] is String)
        }
    }
}
