import Foundation
import GRDB
import OddNamesSDK
import Sesame
import SesameStore
import Testing

/// The store of store.yaml: tables and columns named with keywords, and a text default
/// full of SQL and Swift syntax, create the schema they declare and keep rows intact.
@Suite struct OddStoreTests {
    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try OddNamesSDKStore.Persistence.schema.latest(db) }
        return queue
    }

    @Test func theTablesAndColumnsHaveTheSchemasSQLNames() throws {
        let queue = try database()
        let columns = try queue.read { db in
            [try db.columns(in: "Class").map(\.name), try db.columns(in: "Type").map(\.name)]
        }
        #expect(columns == [["_", "class", "default", "protocol"], ["id", "in"]])
        #expect(OddNamesSDKStore.Persistence.Class.databaseTableName == "Class")
        #expect(OddNamesSDKStore.Persistence.TypeRecord.databaseTableName == "Type")
    }

    @Test func theTextDefaultIsStoredAsWrittenInTheSchema() throws {
        let queue = try database()
        let declared = #"'; DROP TABLE "Class"; -- */ \(x) """"#
        try queue.write { db in try db.execute(sql: #"INSERT INTO "Class" ("_") VALUES ('raw')"#) }
        let row = try queue.read { db in try OddNamesSDKStore.Persistence.Class.fetchOne(db, key: "raw") }
        #expect(row == OddNamesSDKStore.Persistence.Class(`_`: "raw", class: declared, default: nil, protocol: false))
        #expect(OddNamesSDKStore.Persistence.Class(`_`: "k").class == declared)
    }

    @Test func recordsWithKeywordColumnsRoundTrip() throws {
        let queue = try database()
        let records = [
            OddNamesSDKStore.Persistence.Class(`_`: "a", class: "c\"\n", default: 7, protocol: true),
            OddNamesSDKStore.Persistence.Class(`_`: "b", class: "", default: nil, protocol: false),
        ]
        let types = [OddNamesSDKStore.Persistence.TypeRecord(id: "t", in: 1.5)]
        try queue.write { db in
            try OddNamesSDKStore.Persistence.Class.insertAll(records, in: db)
            for record in types { try record.insert(db) }
        }
        typealias Class = OddNamesSDKStore.Persistence.Class
        let (ordered, sevens, fetchedTypes) = try queue.read { db in
            (
                try Class.order(Class.Columns.`_`).fetchAll(db), try Class.filter(Class.Columns.default == 7).fetchCount(db),
                try OddNamesSDKStore.Persistence.TypeRecord.fetchAll(db)
            )
        }
        #expect(ordered == records)
        #expect(sevens == 1)
        #expect(fetchedTypes == types)
    }
}
