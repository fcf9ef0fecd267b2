import Testing
@testable import SesameGenerator

/// Every diagnostic of `store.yaml`, each at its exact line and column.
@Suite struct StoreDiagnosticsTests {
    @Test func referenceSchemaIsValid() throws {
        let (store, diagnostics) = StoreFixture.translate(try StoreFixture.referenceYAML())
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(store?.persistence?.latestVersion ?? 0 >= 3)
        #expect(store?.cache?.policy == .recreate)
    }

    @Test func gapInVersionsIsReportedAtTheVersionAfterIt() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1: { Note: { id: { type: text, primaryKey: true } } }
              3: { Note: { id: { type: text, primaryKey: true } } }
            """)
        #expect(errors == ["3:3: version 3 of 'persistence' follows version 1: version 2 is missing; versions are numbered without gaps"])
    }

    @Test func aVersionNumberWrittenTwiceIsAnError() {
        let errors = StoreFixture.errors(
            """
            cache:
              1: { A: { id: { type: text, primaryKey: true } } }
              01: { A: { id: { type: text, primaryKey: true } } }
            """)
        #expect(errors == ["3:3: version 1 of 'cache' is declared twice"])
    }

    @Test func versionsMustStartAtOne() {
        let errors = StoreFixture.errors(
            """
            cache:
              2: { A: { id: { type: text, primaryKey: true } } }
            """)
        #expect(errors == ["2:3: the first version of 'cache' is 2: versions are numbered from 1 without gaps"])
    }

    @Test func undeclaredColumnDropInPersistenceIsAnError() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true }, body: text }
              2:
                Note: { id: { type: text, primaryKey: true } }
            """)
        #expect(
            errors == [
                "5:5: version 2 of 'persistence' drops column 'Note.body' and its values: declare `removed: [Note.body]` to do so, or rename it with `renamedFrom: body`"
            ])
    }

    @Test func undeclaredTableDropInPersistenceIsAnError() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true } }
                Draft: { id: { type: text, primaryKey: true } }
              2:
                Note: { id: { type: text, primaryKey: true } }
            """)
        #expect(
            errors == [
                "5:3: version 2 of 'persistence' drops table 'Draft' and all its rows: declare `removed: [Draft]` to do so, or rename it with `renamed: { NewName: Draft }`"
            ])
    }

    @Test func undeclaredDropsAreAllowedInAMigratedCache() {
        let errors = StoreFixture.errors(
            """
            cache:
              policy: migrate
              1:
                Note: { id: { type: text, primaryKey: true }, body: text }
                Draft: { id: { type: text, primaryKey: true } }
              2:
                Note: { id: { type: text, primaryKey: true } }
            """)
        #expect(errors.isEmpty)
    }

    @Test func removalOfSomethingStillPresentOrAbsentIsAnError() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true }, body: text }
              2:
                Note: { id: { type: text, primaryKey: true }, body: text }
                removed: [Note.body, Ghost, Note.ghost]
            """)
        #expect(
            errors == [
                "6:15: column 'Note.body' is declared removed, but version 2 of 'persistence' still has it",
                "6:26: 'Ghost' is declared removed, but version 1 has no table 'Ghost'",
                "6:33: 'Note.ghost' is declared removed, but version 1 has no such column",
            ])
    }

    @Test func lossyTypeChangeInPersistenceIsReportedAtTheType() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true }, size: real }
              2:
                Note: { id: { type: text, primaryKey: true }, size: integer }
            """)
        #expect(
            errors == [
                "5:57: changing 'Note.size' from real to integer may lose data, and 'persistence' migrations must be lossless: add a new column instead"
            ])
    }

    @Test func renamedFromAMissingColumnIsReportedAtItsValue() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true }, body: text }
              2:
                Note: { id: { type: text, primaryKey: true }, text: { type: text, renamedFrom: bdy } }
            """)
        #expect(
            errors == [
                "5:5: version 2 of 'persistence' drops column 'Note.body' and its values: declare `removed: [Note.body]` to do so, or rename it with `renamedFrom: body`",
                "5:84: column 'Note.text' is renamed from 'bdy', but table 'Note' of version 1 has no column 'bdy'; did you mean 'body'?",
            ])
    }

    @Test func addedNonNullColumnNeedsADefault() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true } }
              2:
                Note:
                  id: { type: text, primaryKey: true }
                  pinned: boolean
            """)
        #expect(errors == ["7:7: column 'Note.pinned' is added to an existing table: give it a `default:` or make it `nullable: true`"])
    }

    @Test func unknownKeysTypesAndDefaultsAreReportedWithSuggestions() {
        let errors = StoreFixture.errors(
            """
            persistence:
              polcy: migrate
              1:
                Note:
                  id: { type: txt, primaryKey: true }
                  count: { type: integer, defualt: 0 }
                  flag: { type: boolean, default: maybe }
                indexs: {}
            """)
        #expect(
            errors == [
                "2:3: unknown key 'polcy' in 'persistence': versions are numbered 1, 2, 3…; did you mean 'policy'?",
                "5:19: unknown column type 'txt'; did you mean 'text'? (types: text, integer, real, boolean, blob, date)",
                "6:31: unknown key 'defualt' in column 'Note.count'; did you mean 'default'?",
                "7:39: the default of 'Note.flag' must be true or false, found 'maybe'",
                "8:5: unknown key 'indexs' in version 1 of 'persistence'; did you mean 'indexes'?",
            ])
    }

    @Test func persistenceCannotBeRecreated() {
        let errors = StoreFixture.errors(
            """
            persistence:
              policy: recreate
              1: { Note: { id: { type: text, primaryKey: true } } }
            """)
        #expect(
            errors == ["2:11: 'persistence' cannot have policy: recreate: it never loses data; use 'cache' for data that may be rebuilt"])
    }

    @Test func tablesNeedAPrimaryKeyAndIndexesNeedRealColumns() {
        let errors = StoreFixture.errors(
            """
            cache:
              1:
                Avatar: { url: text }
                Note: { id: { type: text, primaryKey: true } }
                indexes:
                  Note_x: { table: Note, columns: [idd] }
                  Note_y: { table: Nte, columns: [id] }
            """)
        #expect(
            errors == [
                "3:5: table 'Avatar' has no primary key: mark a column with `primaryKey: true`",
                "6:40: table 'Note' has no column 'idd'; did you mean 'id'?",
                "7:24: index 'Note_y' names table 'Nte', which this version does not declare; did you mean 'Note'?",
            ])
    }

    @Test func namesThatCouldInjectOrCollideAreRejected() {
        let errors = StoreFixture.errors(
            """
            cache:
              1:
                Note:
                  id: { type: text, primaryKey: true }
                  "x\\"); DROP": text
                  ID: text
            """)
        #expect(
            errors == [
                "5:7: column name 'x\"); DROP' must start with a letter or _ and contain only letters, digits and _",
                "6:7: column 'ID' has the same SQL name as 'id' (SQLite names ignore case)",
            ])
    }

    @Test func everyProblemOfAFileIsReportedInOneRun() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true }, body: text, size: real }
              2:
                Note: { id: { type: text, primaryKey: true }, size: integer }
              4:
                Note: { id: { type: text, primaryKey: true }, size: integer }
            """)
        #expect(errors.count == 3)
    }

    /// A store version of `Int.max`: the numbering check computed the next version as
    /// `number + 1` and overflowed. Versions now stop at SQLite's `user_version` bound.
    @Test func storeVersionTooLargeForTheDatabase() {
        let generation = FuzzCase.run("=== sdk.yaml\n=== store.yaml\npersistence:\n  9223372036854775807: {}\n")
        #expect(
            generation.diagnostics.map(\.description).contains(
                "Schema/store.yaml:2:3: error: version 9223372036854775807 of 'persistence' is too large: a database records at most version 2147483647"
            ))
    }

    /// The largest version a database can record is still a version: past the bound check,
    /// it is reported as a gap like any other.
    @Test func largestStoreVersionIsAGap() {
        let generation = FuzzCase.run("=== sdk.yaml\n=== store.yaml\npersistence:\n  2147483647: {}\n")
        let messages = generation.diagnostics.map(\.message)
        #expect(!messages.contains { $0.contains("too large") })
        #expect(messages.contains { $0.hasPrefix("the first version of 'persistence' is 2147483647") })
    }
}
