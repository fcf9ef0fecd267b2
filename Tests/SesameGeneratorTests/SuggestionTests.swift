import Testing

@testable import SesameGenerator

/// `Suggestion.hint(for:among:writtenAs:)`: the one place the "did you mean" tail of a
/// diagnostic is written.
@Suite struct SuggestionTests {
    @Test func aCloseNameGetsTheHintEveryDiagnosticAppends() {
        #expect(Suggestion.hint(for: "nmae", among: ["id", "name"]) == "; did you mean 'name'?")
        #expect(Suggestion.hint(for: "Usr", among: ["Account", "User"]) == "; did you mean 'User'?")
    }

    @Test func aFarNameGetsNoHint() {
        #expect(Suggestion.hint(for: "colour", among: ["name", "identifier"]) == nil)
        #expect(Suggestion.hint(for: "x", among: ["abcdef"]) == nil)
        #expect(Suggestion.hint(for: "name", among: []) == nil)
    }

    @Test func theHintSpellsTheCandidateAsTheSiteWritesIt() {
        #expect(Suggestion.hint(for: "cod", among: ["code"]) { "{\($0)}" } == "; did you mean '{code}'?")
        #expect(Suggestion.hint(for: "Usr", among: ["User"]) { "#/" + $0 } == "; did you mean '#/User'?")
        #expect(Suggestion.hint(for: "colour", among: ["code"]) { "{\($0)}" } == nil)
    }
}
