import Testing
@testable import Sesame
@_spi(Generated) import SesameDescription

@Test func templateResolvesPlaceholders() throws {
    let template = Template.interpolation([.text("Bearer "), .variable(.accessToken)])
    #expect(try template.resolve { $0 == .accessToken ? .string("abc") : nil } == .string("Bearer abc"))
    #expect(throws: TemplateError.self) { try template.resolve { _ in nil } }
}
