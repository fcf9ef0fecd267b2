/// The validation pass: checks that span files, run once every file is translated. Each
/// check returns diagnostics at the node that caused the problem; none changes the IR.
enum SchemaValidator {
    /// The last step of every method must return the credential's token model.
    static func checkTokenResponses(_ methods: [MethodIR], credential: CredentialIR) -> [Diagnostic] {
        guard let tokenModel = credential.tokenModel else { return [] }
        var diagnostics: [Diagnostic] = []
        for method in methods {
            guard let last = method.steps.last, let response = last.response else { continue }
            if response != tokenModel {
                diagnostics.append(
                    .error(
                        "the last step of '\(method.name)' must return the token model '\(tokenModel.schemaName)', not '\(response.schemaName)'",
                        at: last.location))
            }
        }
        return diagnostics
    }

    /// The store versions against the released snapshots: a recorded version that changed,
    /// or that is no longer declared, is an error (`StoreSnapshots.check`).
    static func checkReleasedStore(_ store: StoreIR?, recorded: [String: String]) -> [Diagnostic] {
        StoreSnapshots.check(store, recorded: recorded)
    }
}
