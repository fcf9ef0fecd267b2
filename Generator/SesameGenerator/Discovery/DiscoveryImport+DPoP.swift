import Foundation
import Yams

extension DiscoveryImport {
    /// Writes the server's `dpop_signing_alg_values_supported` into `credential.dpop.algorithms`
    /// where the schema writes it as a one-line flow sequence (`algorithms: [ES256]`), in place.
    ///
    /// It never turns DPoP on: binding tokens to a key asks the app for a
    /// `proofOfPossession`, so a schema without `credential.dpop` gets a note saying what to
    /// write, and one whose `dpop` has no such sequence a note with the list. A schema with
    /// `credential.dpop` for a server that publishes no DPoP algorithms gets a warning.
    /// - Returns: the text, edited or as it was.
    static func updateDPoP(
        _ text: String, file: String, with document: DiscoveryDocument, diagnostics: inout [Diagnostic]
    ) -> String {
        guard let root = try? Yams.compose(yaml: text), case .mapping(let top) = root else { return text }
        let credential = top.first { $0.key.string == "credential" }
        let dpop = credential?.value.mapping?.first { $0.key.string == "dpop" }
        let at = (dpop ?? credential).map { location($0.key, file) } ?? SourceLocation(file: file, line: 1, column: 1)
        let listed = document.dpopAlgorithms.joined(separator: ", ")
        guard let dpop else {
            if !document.dpopAlgorithms.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        .note,
                        "dpop_signing_alg_values_supported: \(listed): the server can bind tokens to a key of the device; credential.dpop: { algorithms: [\(listed)] } uses it, and the app then needs a proofOfPossession (not written)",
                        at: at))
            }
            return text
        }
        guard !document.dpopAlgorithms.isEmpty else {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "the metadata has no dpop_signing_alg_values_supported: credential.dpop is kept; remove it if the server does not bind tokens to keys",
                    at: at))
            return text
        }
        if !document.dpopAlgorithms.contains("ES256") {
            diagnostics.append(
                Diagnostic(.warning, "dpop_signing_alg_values_supported (\(listed)) does not list ES256, which Sesame signs with", at: at))
        }
        let wanted = EditedValue.strings("algorithms", document.dpopAlgorithms)
        // A block sequence starts with no `[` on its line: only a flow one is replaced.
        guard let current = dpop.value.mapping?.first(where: { $0.key.string == "algorithms" })?.value, current.sequence != nil,
            let start = current.mark
        else {
            diagnostics.append(
                Diagnostic(.note, "credential.dpop.algorithms: write [\(listed)], the server's list (not written)", at: at))
            return text
        }
        if wanted.readsBack(current) { return text }
        let lineEnding = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = text.components(separatedBy: lineEnding)
        let line = Array(lines[start.line - 1].unicodeScalars)
        let open = start.column - 1
        guard open < line.count, line[open] == "[", let close = line[open...].firstIndex(of: "]") else {
            diagnostics.append(
                Diagnostic(.note, "credential.dpop.algorithms: write [\(listed)], the server's list (not written)", at: at))
            return text
        }
        var edited = String.UnicodeScalarView(line[..<open])
        edited.append(contentsOf: wanted.yaml.unicodeScalars)
        edited.append(contentsOf: line[(close + 1)...])
        lines[start.line - 1] = String(edited)
        let updated = lines.joined(separator: lineEnding)
        guard let again = try? Yams.compose(yaml: updated), case .mapping(let newTop) = again,
            let value = newTop.first(where: { $0.key.string == "credential" })?.value.mapping?.first(where: { $0.key.string == "dpop" })?
                .value.mapping?.first(where: { $0.key.string == "algorithms" })?.value,
            wanted.readsBack(value)
        else {
            diagnostics.append(
                Diagnostic(.note, "credential.dpop.algorithms: write [\(listed)], the server's list (not written)", at: at))
            return text
        }
        diagnostics.append(Diagnostic(.note, "credential.dpop.algorithms: [\(listed)], the server's list", at: at))
        return updated
    }
}
