import Foundation
import Testing

@_spi(Generated) @testable import Sesame

/// The string formats, rule by rule: each case names the rule it holds the parser to.
/// Cases come from the RFCs' grammars and from JSON Schema's test suite (optional/format).
@Suite struct FormatTests {
    // MARK: date-time (RFC 3339 §5.6)

    static let validDateTimes: [(String, TimeInterval)] = [
        ("1963-06-19T08:30:06.283185Z", -206_292_593.716_815),  // a fraction
        ("1963-06-19T08:30:06Z", -206_292_594),  // no fraction
        ("1937-01-01T12:00:27.87+00:20", -1_041_337_172.13),  // an offset east
        ("1990-12-31T15:59:50.123-08:00", 662_687_990.123),  // an offset west
        ("1985-04-12t23:20:50.52z", 482_196_050.52),  // lower-case t and z (§5.6 note)
        ("1998-12-31T23:59:60Z", 915_148_800),  // a leap second, UTC: the next minute's first instant
        ("1998-12-31T15:59:60.123-08:00", 915_148_800.123),  // a leap second at 23:59:60 UTC, written with an offset
        ("2000-02-29T00:00:00Z", 951_782_400),  // 29 February of a leap year divisible by 400
        ("2024-02-29T00:00:00+00:00", 1_709_164_800),  // 29 February of a leap year
        ("1970-01-01T00:00:00.000000000000001Z", 0.000_000_000_000_001),  // 15 fraction digits
        ("0001-01-01T00:00:00Z", -62_135_596_800),  // year 1
        ("1999-01-01T00:59:60+01:00", 915_148_800),  // 23:59:60 UTC on 31 December, written an hour east
        ("2016-12-31T23:59:60.5Z", 1_483_228_800.5),  // a leap second with a fraction
        ("1990-06-30T23:59:60Z", 646_790_400),  // the end of June
    ]

    static let invalidDateTimes: [(String, String)] = [
        ("1963-6-19T08:30:06Z", "an unpadded month"),
        ("1963-06-9T08:30:06Z", "an unpadded day"),
        ("1963-06-19T8:30:06Z", "an unpadded hour"),
        ("1963-06-19T24:00:00Z", "hour 24"),
        ("1963-06-19T08:60:06Z", "minute 60"),
        ("1963-06-19T08:30:61Z", "second 61"),
        ("1963-06-31T08:30:06Z", "day 31 of a 30-day month"),
        ("2021-02-29T00:00:00Z", "29 February of a common year"),
        ("1900-02-29T00:00:00Z", "29 February of a year divisible by 100, not 400"),
        ("1963-13-19T08:30:06Z", "month 13"),
        ("1963-00-19T08:30:06Z", "month 0"),
        ("1963-06-00T08:30:06Z", "day 0"),
        ("1963-06-19T08:30:06+01", "an offset without minutes"),
        ("1963-06-19T08:30:06+01:00Z", "Z after an offset"),
        ("1963-06-19T08:30:06+24:00", "an offset of 24 hours"),
        ("1963-06-19T08:30:06+01:60", "an offset minute of 60"),
        ("1963-06-19T08:30:06Z\n", "a trailing newline"),
        (" 1963-06-19T08:30:06Z", "a leading space"),
        ("1963-06-19 08:30:06Z", "a space for T"),
        ("1963-06-19T08:30:06", "no offset"),
        ("1963-06-19T08:30:06.Z", "a point without digits"),
        ("1963-06-19T08:30Z", "no seconds"),
        ("1998-12-31T22:59:60Z", "a leap second at hour 22 UTC"),
        ("1998-12-31T23:58:60Z", "a leap second at minute 58 UTC"),
        ("1998-12-31T23:59:60+01:00", "a leap second at 22:59:60 UTC"),
        ("2024-03-15T23:59:60Z", "a leap second that does not end a month"),
        ("1963-06-19T08:30:06+01:0", "a truncated offset"),
        ("1963-06-19T", "nothing after T"),
        ("1963-06-19T08:30:06-", "a sign without an offset"),
        ("1963-06-19", "a date alone"),
        ("1963-06-1\u{0969}T08:30:06Z", "a non-ASCII digit"),
        ("", "nothing"),
    ]

    @Test(arguments: validDateTimes)
    func aValidDateTimeParsesToItsInstant(text: String, seconds: TimeInterval) throws {
        let date = try #require(RFC3339.dateTime(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001, "\(text)")
    }

    @Test func aLongFractionNeverRoundsUpToTheNextSecond() throws {
        let date = try #require(RFC3339.dateTime("1970-01-01T00:00:00.99999999999999999999Z"))
        #expect(date.timeIntervalSince1970 < 1)
        #expect(date.timeIntervalSince1970 > 0.999_998)
    }

    @Test(arguments: invalidDateTimes)
    func anInvalidDateTimeIsRefused(text: String, rule: String) {
        #expect(RFC3339.dateTime(text) == nil, "\(rule): \(text)")
    }

    @Test func aRefusedDateTimeIsAFormatViolationAtItsPath() {
        let key = AnyCodingKey("at")
        #expect(throws: SchemaViolation.self) { try ModelCoding.dateTime("1963-06-19T24:00:00Z", codingPath: [key]) }
        do {
            _ = try ModelCoding.dateTime("1963-06-19T24:00:00Z", codingPath: [key])
        } catch let violation as SchemaViolation {
            #expect(violation.keyword == "format")
            #expect(violation.path == "$.at")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// A `date-time` decoded with microseconds encodes with them (it came back as `.541Z`);
    /// milliseconds stay three digits, a whole second has no fraction.
    @Test(arguments: [
        "2024-05-02T12:15:04.540523Z", "2024-05-02T12:15:04.000001Z", "2024-05-02T12:15:04.999999Z",
        "1969-12-31T23:59:59.000100Z", "2024-05-02T12:15:04.541Z", "2024-05-02T12:15:04.002Z", "2024-05-02T12:15:04Z",
    ])
    func aDateTimeEncodesAsFinelyAsItWasDecoded(_ text: String) throws {
        let date = try #require(RFC3339.dateTime(text))
        #expect(ModelCoding.dateTimeString(date) == text)
    }

    @Test func datesBeforeAndAfterTheEpochAgreeWithFoundation() throws {
        // Every day of four years around 1970 and 2000, against Foundation's Gregorian calendar.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for start in [DateComponents(year: 1968, month: 1, day: 1), DateComponents(year: 1998, month: 1, day: 1)] {
            var day = try #require(calendar.date(from: start))
            for _ in 0..<(4 * 366) {
                let parts = calendar.dateComponents([.year, .month, .day], from: day)
                let date = RFC3339.FullDate(year: parts.year!, month: parts.month!, day: parts.day!)
                #expect(Double(RFC3339.daysSince1970(date) * 86_400) == day.timeIntervalSince1970, "\(date)")
                day = try #require(calendar.date(byAdding: .day, value: 1, to: day))
            }
        }
    }

    // MARK: date (full-date)

    @Test(arguments: ["1963-06-19", "2020-02-29", "2000-02-29", "0000-01-01", "9999-12-31"])
    func aValidDateParses(text: String) {
        #expect(CalendarDate(text)?.description == text)
    }

    @Test(arguments: [
        "1963-6-19", "1963-06-1", "2021-02-29", "1900-02-29", "1963-06-31", "1963-13-01", "1963-06-19T00:00:00Z",
        "1963-06-19 ", "63-06-19", "1963/06/19", "1963-06-1\u{0969}", "",
    ])
    func anInvalidDateIsRefused(text: String) {
        #expect(CalendarDate(text) == nil, "\(text)")
    }

    // MARK: uri and uri-reference (RFC 3986)

    static let validURIs = [
        "http://foo.bar/?baz=qux#quux", "http://foo.com/blah_(wikipedia)_blah#cite-1", "http://foo.bar/?q=Test%20URL-encoded%20stuff",
        "http://xn--nw2a.xn--j6w193g/", "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", "http://223.255.255.254",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt", "http://www.ietf.org/rfc/rfc2396.txt", "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com", "news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", "https://example.com:8443/a/b;c=d?e=f&g=h#i", "file:///etc/hosts",
        "x:", "http://[::1]:80/",
    ]

    static let invalidURIs: [(String, String)] = [
        ("//foo.bar/?baz=qux#quux", "no scheme"), ("/abc", "a relative path"), ("abc", "no scheme, no colon"),
        ("http:// shouldfail.com", "a space"), (":// should fail", "an empty scheme"), ("http://example.com/a b", "a space in the path"),
        ("http://example.com/\"a\"", "double quotes"), ("http://example.com/<a>", "angle brackets"), ("http://example.com/{a}", "braces"),
        ("http://example.com/a^b", "a caret"), ("http://example.com/a`b", "a backtick"), ("http://example.com/a|b", "a bar"),
        ("http://example.com/a\\b", "a backslash"), ("http://example.com/%zz", "a bad percent-encoding"),
        ("http://example.com/%4", "a truncated percent-encoding"), ("http://example.com/café", "non-ASCII"),
        ("http://example.com/[a]", "a bracketed path segment"), ("http://[::1/", "an unclosed IP literal"),
        ("http://[127.0.0.1]/", "IPv4 in brackets"), ("http://example.com:80a/", "a port with a letter"),
        ("1http://example.com", "a scheme starting with a digit"), ("http://a@b@c/", "two @ in the authority"),
        ("http://example.com/?a#b#c", "a # in the fragment"), ("http://a/%", "a lone % at the end"), ("%", "a lone %"),
        ("http://[", "an unclosed bracket"), ("http://[]", "empty brackets"), ("http://[::1]x", "text after the brackets"),
    ]

    @Test(arguments: validURIs)
    func aValidURIIsAccepted(text: String) throws {
        #expect(RFC3986.isURI(text), "\(text)")
        #expect(RFC3986.isURIReference(text), "\(text)")
        #expect(try ModelCoding.uri(text, codingPath: []).absoluteString == text)
    }

    @Test(arguments: invalidURIs)
    func anInvalidURIIsRefused(text: String, rule: String) {
        #expect(!RFC3986.isURI(text), "\(rule): \(text)")
        #expect(throws: SchemaViolation.self) { try ModelCoding.uri(text, codingPath: []) }
    }

    @Test func anIPvFutureHostIsAURIThatFoundationMayNotRepresent() {
        #expect(RFC3986.isURI("http://[v1.fe]/"))
        #expect(!RFC3986.isURI("http://[v1.]/"))
        #expect(!RFC3986.isURI("http://[vz.fe]/"))
    }

    @Test(arguments: ["//foo.bar/?baz=qux#quux", "/abc", "abc", "../a/b?c", "#fragment", "?query", "", "a/b:c", "./a:b"])
    func aRelativeReferenceIsAURIReference(text: String) {
        #expect(RFC3986.isURIReference(text), "\(text)")
    }

    @Test(arguments: ["\\\\WINDOWS\\fileshare", "abc#frag#ment", "a b", "1a:b", "%zz", "/a[b]", "http://a b/"])
    func anInvalidURIReferenceIsRefused(text: String) {
        #expect(!RFC3986.isURIReference(text), "\(text)")
    }

    // MARK: email (RFC 5321 Mailbox)

    @Test(arguments: [
        "joe.bloggs@example.com", "te~st@example.com", "~test@example.com", "test~@example.com", "\"joe bloggs\"@example.com",
        "\"joe..bloggs\"@example.com", "\"joe@bloggs\"@example.com", "\"a\\\"b\"@example.com", "joe.bloggs@[127.0.0.1]",
        "joe.bloggs@[IPv6:::1]", "te.s.t@example.com", "a@localhost", "!#$%&'*+-/=?^_`{|}~@example.com",
    ])
    func aValidMailboxIsAccepted(text: String) throws {
        #expect(Mailbox.isMailbox(text), "\(text)")
        try ModelCoding.email(text, codingPath: [])
    }

    @Test(arguments: [
        ("2962", "no @"), (".test@example.com", "a leading dot"), ("test.@example.com", "a trailing dot"),
        ("te..st@example.com", "doubled dots"), ("joe.bloggs@invalid=domain.com", "an = in the domain"),
        ("joe.bloggs@[127.0.0.300]", "a bad IPv4 literal"), ("joe bloggs@example.com", "an unquoted space"),
        ("joe@example..com", "an empty domain label"), ("joe@-example.com", "a label starting with a hyphen"),
        ("@example.com", "an empty local part"), ("joe@", "no domain"), ("\"joe@example.com", "an unclosed quote"),
        ("jöe@example.com", "non-ASCII"), (String(repeating: "a", count: 65) + "@example.com", "a local part of 65 octets"),
        ("joe@[IPv6:1:2]", "a short IPv6 literal"), ("\"\\\"@example.com", "an escaped closing quote"),
        ("joe@[IPv6:1:2:3:4:5:6:7::]", "a :: for one group (RFC 5321 IPv6-comp)"),
        ("joe@[IPv6:1:2:3:4:5::1.2.3.4]", "a :: for one group before a dotted quad"),
    ])
    func anInvalidMailboxIsRefused(text: String, rule: String) {
        #expect(!Mailbox.isMailbox(text), "\(rule): \(text)")
        #expect(throws: SchemaViolation.self) { try ModelCoding.email(text, codingPath: []) }
    }

    // MARK: hostname (RFC 1123)

    @Test(arguments: [
        "www.example.com", "xn--4gbwdl.xn--wgbh1c", "hostname", "host-name", "h0stn4me", "1host", "hostnam3",
        String(repeating: "a", count: 63) + ".com", String(repeating: "a.", count: 126) + "a",
    ])
    func aValidHostnameIsAccepted(text: String) {
        #expect(Hostname.isHostname(text), "\(text)")
    }

    @Test(arguments: [
        ("-a-host-name-that-starts-with--.com", "a label starting with a hyphen"), ("hostname-", "a label ending with a hyphen"),
        ("not_a_valid_host_name", "an underscore"), ("_hostname", "a leading underscore"), ("", "nothing"), (".", "a single dot"),
        ("example.com.", "a final dot"), (String(repeating: "a.", count: 126) + "ab", "254 characters"), ("example..com", "an empty label"),
        (String(repeating: "a", count: 64) + ".com", "a label of 64"),
        (String(repeating: "a.", count: 127) + "a", "255 characters"), ("bücher.de", "non-ASCII"),
    ])
    func anInvalidHostnameIsRefused(text: String, rule: String) {
        #expect(!Hostname.isHostname(text), "\(rule): \(text)")
    }

    // MARK: ipv4 and ipv6

    @Test(arguments: ["192.168.0.1", "0.0.0.0", "255.255.255.255", "87.10.0.1"])
    func aValidIPv4IsAccepted(text: String) {
        #expect(IPAddress.isIPv4(text), "\(text)")
    }

    @Test(arguments: [
        "127.0.0.0.1", "256.256.256.256", "127.0", "0x7f000001", "2130706433", "087.10.0.1", "1.2.3.04", "1.2.3.", " 1.2.3.4",
        "1.2.3.4 ", "1.2.3.\u{0969}", "+1.2.3.4",
    ])
    func anInvalidIPv4IsRefused(text: String) {
        #expect(!IPAddress.isIPv4(text), "\(text)")
    }

    @Test(arguments: [
        "::1", "::", "::42:ff:1", "d6::", "1:d6::42", "1::d6:42", "1:2:3:4:5:6:7:8",
        "::ffff:192.168.0.1", "1:2:3:4:5:6:1.2.3.4", "1::1.2.3.4", "FFFF:ffff::", "0:0:0:0:0:0:0:0",
    ])
    func aValidIPv6IsAccepted(text: String) {
        #expect(IPAddress.isIPv6(text), "\(text)")
    }

    @Test(arguments: [
        "12345::", "1:1:1:1:1:1:1:1:1", "::laptop", ":2:3:4:5:6:7:8", "1:2:3:4:5:6:7:", "1::d6::42", "1::2:192.168.256.1",
        "1::2:192.168.ff.1", "1:2:3:4:5:::8", "1:2:3:4:5:6:7:8:1.2.3.4", "fe80::a%eth1", " ::1", "::1 ", "[::1]", "1:2:3:4:5:6:7",
        "1:2:3:4:1.2.3.4", "::\u{0969}", "", ":::", "1.2.3.4::", String(repeating: "0", count: 46),
    ])
    func anInvalidIPv6IsRefused(text: String) {
        #expect(!IPAddress.isIPv6(text), "\(text)")
    }
}
