@_spi(Generated) import SesameDescription

/// A plain step (``AuthenticationStepDescription/Kind/request``): nothing comes before its
/// request, which names a client only with `post` client authentication.
struct RequestStep: StepInterpreter {
    var clientNaming: RequestFactory.ClientNaming { .onlyWithPost }

    func run<Schema: SDKSchema>(
        _ step: AuthenticationStepDescription, of process: AuthenticationProcess, credential: Credential?,
        browser: BrowserSession?, in service: AuthenticationService<Schema>
    ) async throws -> JSONValue {
        try await service.sendStepRequest(step, of: process, credential: credential)
    }
}
