import Testing

@testable import SesameGenerator

/// How models are laid out in files: runs of a few consecutive models of one schema file,
/// cut where a model's name says so, so that a change to one model rewrites one file.
@Suite struct ModelFileTests {
    /// `count` object models named `prefix0`, `prefix1`, … declared in that order in `file`.
    private func declared(_ count: Int, prefix: String = "M", in file: String = "Schema/models.yaml") -> [ModelIR] {
        (0..<count).map { index in
            ModelIR(
                name: "\(prefix)\(index)", swiftName: "\(prefix)\(index)", description: nil,
                kind: .object(ObjectIR(properties: [], additionalProperties: .ignored)),
                location: SourceLocation(file: file, line: index + 1, column: 1))
        }
    }

    private func names(_ runs: [[ModelIR]]) -> [[String]] { runs.map { $0.map(\.name) } }

    @Test func runsFollowTheDeclarationOrderAndStartWhereANameSaysSo() {
        // In name order, as the IR lists them: M0, M1, M10, M100, …
        let models = declared(300).sorted { $0.name < $1.name }
        let runs = SwiftRenderer.modelRuns(models)
        #expect(runs.flatMap { $0 }.map(\.name) == (0..<300).map { "M\($0)" })
        for (index, run) in runs.enumerated() {
            #expect(run.count <= SwiftRenderer.longestRun)
            // Each run but the first starts at a boundary name (or after a full run), and
            // has no boundary name inside.
            if index > 0 {
                #expect(SwiftRenderer.startsRun(run[0].name) || runs[index - 1].count == SwiftRenderer.longestRun)
            }
            #expect(run.dropFirst().allSatisfy { !SwiftRenderer.startsRun($0.name) })
        }
        // About eight models a file, not one and not all.
        #expect(runs.count > 300 / 16 && runs.count < 300 / 4, "\(runs.count) runs")
    }

    @Test func runsNeverSpanSchemaFiles() {
        let runs = SwiftRenderer.modelRuns(
            declared(20, prefix: "A", in: "Schema/a.yaml") + declared(20, prefix: "B", in: "Schema/b.yaml"))
        for run in runs {
            #expect(Set(run.map(\.location.file)).count == 1)
        }
        #expect(runs.first?.first?.name == "A0")
        #expect(runs.contains { $0.first?.name == "B0" })
    }

    /// Inserting a model rewrites the run it joins (and, when its name starts a run, that
    /// run's tail moves to a new one); every other run is unchanged.
    @Test func insertingAModelChangesOnlyTheRunItJoins() {
        let before = declared(200)
        let beforeRuns = Set(names(SwiftRenderer.modelRuns(before)))
        for (at, name) in [(37, "Inserted"), (120, "Another"), (0, "First")] {
            var after = before
            after.insert(
                ModelIR(
                    name: name, swiftName: name, description: nil,
                    kind: .object(ObjectIR(properties: [], additionalProperties: .ignored)),
                    location: SourceLocation(file: "Schema/models.yaml", line: at + 1, column: 0)), at: at)
            let afterRuns = Set(names(SwiftRenderer.modelRuns(after)))
            let added = afterRuns.subtracting(beforeRuns)
            let removed = beforeRuns.subtracting(afterRuns)
            // The run it joins changes (or its tail moves to a run the new model starts).
            #expect(added.count >= 1 && added.count <= 2 && removed.count <= 1, "\(name): +\(added) -\(removed)")
            #expect(Set(added.flatMap { $0 }) == Set(removed.flatMap { $0 } + [name]), "\(name): +\(added) -\(removed)")
        }
    }

    /// FNV-1a, not `Hasher`: the same cut on every machine and every run. The published
    /// test vectors, and `startsRun` applying the rule to them.
    @Test func theCutHashIsFNV1a() {
        #expect(fnv1a("") == 2_166_136_261)
        #expect(fnv1a("a") == 0xE40C_292C)
        #expect(fnv1a("foobar") == 0xBF9C_F968)
    }

    private func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        #expect(SwiftRenderer.startsRun(text) == (hash % UInt32(SwiftRenderer.meanRun) == 0))
        return hash
    }

    @Test func filesAreNamedAfterTheirSchemaFileAndFirstModel() {
        let many = (0..<40).map { "M\($0): { type: string }" }.joined(separator: "\n")
        let generation = Fixture.generate([
            "models.yaml": Fixture.models, "billing/invoices.yaml": "Invoice: { type: string }\n", "methods.yaml": many,
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let paths = generation.files.map(\.path).filter { $0.hasPrefix("Models/") }
        #expect(paths.contains("Models/Models.swift"))
        #expect(paths.contains("Models/Billing_Invoices.swift"))
        // `methods.yaml` would be `Methods.swift`, the name of the methods' file.
        #expect(paths.contains("Models/Methods_2.swift"))
        #expect(paths.contains { $0.hasPrefix("Models/Methods_2+M") } == false)
        #expect(paths.contains { $0.hasPrefix("Models/Methods+M") })
        #expect(generation.files.filter { $0.path.hasSuffix("/Methods.swift") || $0.path == "Methods.swift" }.count == 1)
        // Every model is in exactly one file, after its mark.
        for index in 0..<40 {
            let holders = generation.files.filter { $0.contents.contains("// MARK: - M\(index)\n") }
            #expect(holders.count == 1, "M\(index)")
        }
    }

    @Test func modelsHoistedFromAFileWithARoleAreNamedAfterIt() {
        let auth =
            Fixture.auth + """

                  search:
                    request: POST /search
                    body: { type: object, properties: { query: { type: string } } }
                    response: User
                """
        let generation = Fixture.generate(["auth.yaml": auth])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(generation.files.contains { $0.path == "Models/AuthModels.swift" })
    }
}
