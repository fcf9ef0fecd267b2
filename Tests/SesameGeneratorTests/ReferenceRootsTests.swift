import Testing

/// The build plugin's reading of sdk.yaml's `references.roots` (Plugins/SesameBuildPlugin/
/// ReferenceRoots.swift, compiled here through a link): the files of each root are inputs of
/// the build command, so a change of a referenced document rebuilds the SDK.
@Suite struct ReferenceRootsTests {
    @Test func theFlowAndTheBlockListAreRead() {
        #expect(ReferenceRoots.roots(inSDKFile: "sdk: A\nreferences: { roots: [../api, \"../shared\"] }\n") == ["../api", "../shared"])
        #expect(
            ReferenceRoots.roots(
                inSDKFile:
                    "sdk: A\nreferences:\n  map: { \"https://x.example/\": ../api/ }\n  roots:\n    - ../api\n    - '../more'  # comment\nserver: {}\n"
            )
                == ["../api", "../more"])
        #expect(ReferenceRoots.roots(inSDKFile: "sdk: A\nreferences:\n  roots: [../api]\nserver:\n  roots: [../not]\n") == ["../api"])
        #expect(ReferenceRoots.roots(inSDKFile: "sdk: A\nserver: { roots: [../not] }\n").isEmpty)
    }
}
