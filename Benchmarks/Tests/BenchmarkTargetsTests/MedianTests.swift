import Testing

@testable import BenchmarkTargets

@Suite("The median every sesame-bench figure uses")
struct MedianTests {
    @Test func anOddCountGivesTheMiddleValueWhateverTheOrder() {
        #expect(median([3, 1, 2]) == 2)
        #expect(median([9, 1, 5, 7, 3]) == 5)
        #expect(median([4]) == 4)
    }

    @Test func anEvenCountGivesTheMeanOfTheTwoMiddleValues() {
        // Not the upper middle value (3), which one of the three copies this helper replaced took.
        #expect(median([4, 1, 3, 2]) == 2.5)
        #expect(median([0.9, 1.1]) == 1.0)
    }

    @Test func noValuesGiveNaNRatherThanACrash() {
        #expect(median([]).isNaN)
    }
}
