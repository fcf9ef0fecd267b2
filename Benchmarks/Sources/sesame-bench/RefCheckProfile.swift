import AllocationCounter
import ArgumentParser
import DecodeModels
import Foundation
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// `sesame-bench ref-check-allocations` (issue 30, part 6): where the allocations of
/// `notes-ref-checked`'s check go. Decodes the benchmark's notes with a probe model that, on
/// each edited note's decoder, counts the allocations of one step of the check at a time (the
/// malloc counter of `decode`), and prints the average per edited note of each step.
struct RefCheckProfile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ref-check-allocations",
        abstract: "Counts the allocations of each step of notes-ref-checked's $ref check, per edited note.")

    @Option(help: "How many notes the list holds (half are edited).")
    var notes = 10_000

    /// What `dependentSchemas: { updatedAt: { $ref: EditedNote } }` compiles to, with `reference`.
    static func check(_ reference: SchemaCheck.Reference) -> SchemaCheck {
        SchemaCheck(
            ModelCheck(allOf: [
                ModelCheck(ifSchema: ModelCheck(types: [.object], required: ["updatedAt"]), thenSchema: ModelCheck(reference: "EditedNote"))
            ]),
            references: ["EditedNote": reference])
    }

    /// The steps counted, in order: what the `$ref` did before part 6 broken down, then the
    /// whole check both ways.
    static let steps: [(name: String, run: @Sendable (any Decoder) throws -> Void)] = [
        ("ModelCoding.strictly { } (the task-local of strict decoding)", { _ in ModelCoding.strictly {} }),
        ("decoder.container(keyedBy:) (EditedNote's keyed container)", { _ = try $0.container(keyedBy: PropertyKey.self) }),
        (
            "container.decode(String.self, forKey: createdAt) (the date-time's text)",
            { decoder in
                let container = try decoder.container(keyedBy: PropertyKey.self)
                allocation_counter_start()
                _ = try container.decode(String.self, forKey: "createdAt")
            }
        ),
        (
            "container.decode(DateTimeValue.self, forKey: createdAt) (text, nested decoder, Date)",
            { decoder in
                let container = try decoder.container(keyedBy: PropertyKey.self)
                allocation_counter_start()
                _ = try container.decode(DateTimeValue.self, forKey: "createdAt")
            }
        ),
        ("EditedNote(from: decoder)", { _ = try EditedNote(from: $0) }),
        (
            "ModelCoding.strictly { EditedNote(from: decoder) } (the $ref before part 6)",
            { decoder in try ModelCoding.strictly { _ = try EditedNote(from: decoder) } }
        ),
        (
            "checkedContainer, $ref decoding EditedNote (part 5)",
            { _ = try ModelCoding.checkedContainer($0, RefCheckProfile.decoding, declared: []) }
        ),
        (
            "checkedContainer, $ref told by presence (part 6)",
            { _ = try ModelCoding.checkedContainer($0, RefCheckProfile.presence, declared: []) }
        ),
        ("decoder.container(keyedBy:) alone (the model's own, for comparison)", { _ = try $0.container(keyedBy: PropertyKey.self) }),
    ]

    static let decoding = check(ModelCoding.reference(EditedNote.self))
    static let presence = check(ModelCoding.reference(EditedNote.self, inPlaceRequires: ["createdAt", "updatedAt"]))

    static let stepKey = CodingUserInfoKey(rawValue: "sesame.bench.step")!

    /// A note whose decoding counts one step on its decoder, when the note was edited.
    struct Probe: Decodable {
        nonisolated(unsafe) static var total: UInt64 = 0
        nonisolated(unsafe) static var edited = 0

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: PropertyKey.self)
            guard container.contains("updatedAt") else { return }
            let step = RefCheckProfile.steps[decoder.userInfo[RefCheckProfile.stepKey] as! Int]
            allocation_counter_start()
            try step.run(decoder)
            allocation_counter_stop()
            Self.total += allocation_counter_allocations()
            Self.edited += 1
        }
    }

    struct ProbeList: Decodable {
        var notes: [Probe]
    }

    func run() throws {
        guard allocation_counter_is_active() != 0 else { throw ValidationError("the allocation counter is not active") }
        let encoder = CodingPayload.jsonEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(PlainModels.NoteList(notes: (0..<notes).map(CodingPayload.note)))
        for (index, step) in Self.steps.enumerated() {
            var fewest = Double.infinity
            // The fewest of three runs, as `decode` counts.
            for _ in 0..<3 {
                (Probe.total, Probe.edited) = (0, 0)
                let decoder = JSONDecoder()
                decoder.userInfo = [Self.stepKey: index]
                _ = try decoder.decode(ProbeList.self, from: data)
                fewest = min(fewest, Double(Probe.total) / Double(max(Probe.edited, 1)))
            }
            print(String(format: "%6.2f  %@", fewest, step.name))
        }
    }
}
