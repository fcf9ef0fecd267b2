import Testing
@testable import SesameGenerator

/// Consecutive versions → migration steps (as the SQL each runs).
@Suite struct StoreDiffTests {
    private func migrations(_ yaml: String, _ kind: StoreKindIR = .persistence) throws -> [StoreMigrationIR] {
        let (store, diagnostics) = StoreFixture.translate(yaml)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let section = try #require(kind == .persistence ? store?.persistence : store?.cache)
        return section.migrations
    }

    @Test func referenceMigrationsHaveStableIdentifiersAndExpectedSQL() throws {
        let migrations = try migrations(try StoreFixture.referenceYAML())
        #expect(migrations.map(\.identifier) == ["persistence.v1", "persistence.v2", "persistence.v3"])
        #expect(migrations.map(\.version) == [1, 2, 3])
        #expect(
            StoreFixture.sql(migrations[0]) == [
                #"CREATE TABLE "Note" ("id" TEXT NOT NULL, "body" TEXT NOT NULL, "createdAt" INTEGER NOT NULL, PRIMARY KEY ("id"))"#
            ])
        #expect(
            StoreFixture.sql(migrations[1]) == [
                #"ALTER TABLE "Note" ADD COLUMN "pinned" BOOLEAN NOT NULL DEFAULT 0"#
            ])
        #expect(
            StoreFixture.sql(migrations[2]) == [
                #"CREATE TABLE "sesame_new_Note" ("id" TEXT NOT NULL, "text" TEXT NOT NULL, "createdAt" REAL NOT NULL, "pinned" BOOLEAN NOT NULL DEFAULT 0, PRIMARY KEY ("id"))"#,
                #"INSERT INTO "sesame_new_Note" ("id", "text", "createdAt", "pinned") SELECT "id", "body", CAST("createdAt" AS REAL), "pinned" FROM "Note""#,
                #"DROP TABLE "Note""#,
                #"ALTER TABLE "sesame_new_Note" RENAME TO "Note""#,
                #"CREATE INDEX "Note_pinned" ON "Note" ("pinned")"#,
            ])
    }

    @Test func renameAloneIsAnAlterTableRename() throws {
        let migrations = try migrations(
            """
            persistence:
              1: { Note: { id: { type: text, primaryKey: true }, body: text } }
              2: { Note: { id: { type: text, primaryKey: true }, text: { type: text, renamedFrom: body } } }
              3: { Note: { id: { type: text, primaryKey: true }, text: { type: text, renamedFrom: body } } }
            """)
        #expect(StoreFixture.sql(migrations[1]) == [#"ALTER TABLE "Note" RENAME COLUMN "body" TO "text""#])
        // A `renamedFrom:` kept in later versions is inert.
        #expect(StoreFixture.sql(migrations[2]).isEmpty)
    }

    @Test func columnAddedInTheMiddleRebuildsSoTheOrderMatchesAFreshTable() throws {
        let migrations = try migrations(
            """
            persistence:
              1: { Note: { id: { type: text, primaryKey: true }, body: text } }
              2: { Note: { id: { type: text, primaryKey: true }, title: { type: text, nullable: true }, body: text } }
            """)
        #expect(
            StoreFixture.sql(migrations[1])[1]
                == #"INSERT INTO "sesame_new_Note" ("id", "title", "body") SELECT "id", NULL, "body" FROM "Note""#)
    }

    @Test func declaredRemovalsDropAndRebuild() throws {
        let migrations = try migrations(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true }, body: text, legacy: integer }
                Draft: { id: { type: text, primaryKey: true } }
              2:
                Note: { id: { type: text, primaryKey: true }, body: text }
                removed: [Draft, Note.legacy]
            """)
        let sql = StoreFixture.sql(migrations[1])
        #expect(sql.first == #"DROP TABLE "Draft""#)
        #expect(sql.contains(#"INSERT INTO "sesame_new_Note" ("id", "body") SELECT "id", "body" FROM "Note""#))
    }

    @Test func nullableMadeNonNullCopiesWithTheDefault() throws {
        let migrations = try migrations(
            """
            persistence:
              1: { Note: { id: { type: text, primaryKey: true }, title: { type: text, nullable: true } } }
              2: { Note: { id: { type: text, primaryKey: true }, title: { type: text, default: "It's" } } }
            """)
        #expect(
            StoreFixture.sql(migrations[1])[1]
                == #"INSERT INTO "sesame_new_Note" ("id", "title") SELECT "id", COALESCE("title", 'It''s') FROM "Note""#)
    }

    @Test func tableRenameAndIndexChanges() throws {
        let migrations = try migrations(
            """
            persistence:
              1:
                Note: { id: { type: text, primaryKey: true }, body: text, pinned: { type: boolean, default: false } }
                indexes:
                  Note_pinned: { table: Note, columns: [pinned] }
                  Note_body: { table: Note, columns: [body] }
              2:
                Memo: { id: { type: text, primaryKey: true }, body: text, pinned: { type: boolean, default: false } }
                renamed: { Memo: Note }
                indexes:
                  Note_pinned: { table: Memo, columns: [pinned] }
                  Memo_body: { table: Memo, columns: [body], unique: true }
            """)
        #expect(
            StoreFixture.sql(migrations[1]) == [
                #"DROP INDEX "Note_body""#,
                #"ALTER TABLE "Note" RENAME TO "Memo""#,
                #"CREATE UNIQUE INDEX "Memo_body" ON "Memo" ("body")"#,
            ])
    }

    @Test func recreatedCacheHasOneCreationMigrationForTheLatestVersion() throws {
        let migrations = try migrations(
            """
            cache:
              policy: recreate
              1: { Avatar: { userId: { type: text, primaryKey: true }, png: blob } }
              2: { Avatar: { userId: { type: text, primaryKey: true }, url: text } }
            """, .cache)
        #expect(migrations.map(\.identifier) == ["cache.v2"])
        #expect(
            StoreFixture.sql(migrations[0]) == [
                #"CREATE TABLE "Avatar" ("userId" TEXT NOT NULL, "url" TEXT NOT NULL, PRIMARY KEY ("userId"))"#
            ])
    }

    @Test func losslessTypeChangesConvert() throws {
        let migrations = try migrations(
            """
            persistence:
              1: { T: { id: { type: integer, primaryKey: true }, flag: boolean, n: integer, data: text } }
              2: { T: { id: { type: integer, primaryKey: true }, flag: integer, n: text, data: blob } }
            """)
        #expect(
            StoreFixture.sql(migrations[1])[1]
                == #"INSERT INTO "sesame_new_T" ("id", "flag", "n", "data") SELECT "id", "flag", CAST("n" AS TEXT), CAST("data" AS BLOB) FROM "T""#
        )
    }
}
