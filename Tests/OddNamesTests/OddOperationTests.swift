import Foundation
import OddNamesSDK
@_spi(Generated) import Sesame
import SesameTestSupport
import Testing

/// The generated operations, named with keywords, over a recording performer: each sends
/// its own request with the schema's path, path parameters and query names exactly.
@Suite struct OddOperationTests {
    static let oddJSON = #"{"user\"id":"u","quote\"d":"q"}"#

    @Test func keywordOperationsSendTheirOwnRequests() async throws {
        let performer = RecordingPerformer<OddNamesSDKSchema>(body: Self.oddJSON)
        let odd = try await performer.class()
        #expect(odd == Odd(userId: "u", quoteD: "q"))
        try await performer.`self`()
        try await performer.`init`()
        let requests = await performer.requests
        #expect(requests.map(\.description.name) == ["class", "self", "init"])
        #expect(requests.map(\.description.path) == [#"/users/"me""#, #"/auth/logout\\"#, "/account"])
        #expect(requests.map(\.description.method.rawValue) == ["GET", "POST", "DELETE"])
        #expect(try requests.map { try $0.resolvedPath() } == [#"/users/"me""#, #"/auth/logout\\"#, "/account"])
    }

    @Test func pathParametersNamedWithKeywordsFillTheirOwnPlaceholders() async throws {
        let performer = RecordingPerformer<OddNamesSDKSchema>(body: #"{"quote\"d":"r"}"#)
        let response = try await performer.default(in: ._2A_2F, self: "a/b c", `_`: 7)
        #expect(response.quoteD == "r")
        let request = try #require(await performer.requests.first)
        #expect(request.description.path == "/identities/{in}/{self}/{_}")
        #expect(request.pathParameters == ["in": "*/", "self": "a/b c", "_": "7"])
        #expect(try request.resolvedPath() == "/identities/%2A%2F/a%2Fb%20c/7")
    }

    @Test func queryParametersAreSentUnderTheirSchemaNames() async throws {
        let performer = RecordingPerformer<OddNamesSDKSchema>(body: ##"[{"kind\"#":"self"}]"##)
        let unions = try await performer.type(protocol: "p&q", self: 3, `_`: .quoteD, `true`: false)
        #expect(unions == [.selfValue(KeywordVariant(kind: "self"))])
        _ = try await performer.type()
        let requests = await performer.requests
        #expect(requests[0].query.map(\.name) == ["protocol", "Self", "_", "true"])
        #expect(requests[0].query.map(\.value) == ["p&q", "3", "quote\"d", "false"])
        #expect(requests[1].query.isEmpty)
        #expect(requests[0].description.name == "Type")
        #expect(requests[0].description.path == #"/search/"q"/名前/\(x)"#)
    }

    @Test func anOperationNamedPerformSendsItsBodyWithEveryOddKey() async throws {
        let performer = RecordingPerformer<OddNamesSDKSchema>(body: Self.oddJSON)
        let body = Odd(userId: "u\n", quoteD: "*/", café: "c", evil: "e", aB_: "x")
        let answer = try await performer.perform(body)
        #expect(answer == Odd(userId: "u", quoteD: "q"))
        let request = try #require(await performer.requests.first)
        #expect(request.description.name == "perform")
        guard case .json(let data)? = request.body else {
            Issue.record("expected a JSON body, found \(String(describing: request.body))")
            return
        }
        let expected = ["user\"id", "quote\"d", "back\\slash", "\"\"\"", "café", "\u{202E}evil", "a_b"] + OddModelTests.constants.keys
        #expect(try WireKeys.keys(of: data) == Set(expected.map(WireKeys.scalars)))
        #expect(try WireKeys.members(of: data)[WireKeys.scalars("user\"id")] == .string("u\n"))
    }
}
