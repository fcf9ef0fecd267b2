import Foundation
import OddNamesSDK
@_spi(Generated) import Sesame
import Testing

/// `OddNamesSDKError`: each error code of errors.yaml, odd text included, selects its own
/// case and its declared category; any other code is `unknown`.
@Suite struct OddErrorTests {
    static var codes: [(code: String, category: ErrorCategory, expected: (ServerErrorResponse) -> OddNamesSDKError)] {
        [
            ("quote\"d", .client, OddNamesSDKError.quoteD), ("back\\slash", .client, OddNamesSDKError.backSlash),
            ("line\nbreak", .client, OddNamesSDKError.lineBreak), ("*/", .client, OddNamesSDKError._2A_2F),
            ("#if DEBUG", .transient, OddNamesSDKError.ifDEBUG), ("unknown", .client, OddNamesSDKError.unknownError),
            ("class", .credentialRejected, OddNamesSDKError.class), ("self", .reauthenticationRequired, OddNamesSDKError.selfError),
            ("init", .server, OddNamesSDKError.initError), ("description", .client, OddNamesSDKError.descriptionError),
            ("café", .client, OddNamesSDKError.café), ("名前", .client, OddNamesSDKError.名前), ("🎉", .client, OddNamesSDKError._1F389),
            ("", .client, OddNamesSDKError.`_`), ("\u{2028}", .client, OddNamesSDKError._2028),
        ]
    }

    @Test func eachCodeIsItsOwnCaseWithItsCategory() {
        for (code, category, expected) in Self.codes {
            let response = ServerErrorResponse(status: 400, code: code, message: "m", category: category)
            let error = OddNamesSDKError(response)
            #expect(error == expected(response), "\(code.debugDescription)")
            #expect(error.code.map(WireKeys.scalars) == WireKeys.scalars(code))
            #expect(OddNamesSDKError.categories[code] == category, "\(code.debugDescription)")
        }
        #expect(Set(OddNamesSDKError.categories.keys.map(WireKeys.scalars)) == Set(Self.codes.map { WireKeys.scalars($0.code) }))
    }

    @Test(arguments: ["QUOTE\"D", "Class", "unknown ", "\\", "#if", "\u{2029}"])
    func aCodeTheCatalogueLacksIsUnknown(_ code: String) {
        let response = ServerErrorResponse(status: 400, code: code, message: nil, category: .client)
        #expect(OddNamesSDKError(response) == .unknown(response))
    }

    @Test func theEnvelopeFieldsKeepTheirQuoteAndBackslash() {
        let errors = OddNamesSDKSchema.description.errors
        #expect(errors.codeField == "err\"or")
        #expect(errors.messageField == "mess\\age")
    }
}
