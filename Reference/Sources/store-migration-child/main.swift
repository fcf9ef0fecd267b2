// The child process of the migration crash tests (Reference/Tests/ReferenceSDKTests/StoreCrashTests):
//
//     store-migration-child <database path>
//
// Prints "migrating" once it is about to open the database, then opens it with the
// reference SDK's persistence schema, which migrates it to the latest version, and prints
// "migrated <version>". The test kills it with SIGKILL at some point in between and checks
// that the database reopens at a version before or after a migration, with every row.
// Exit status: 0 when migrated, 1 on a store error, 2 on bad arguments.
import Foundation
import ReferenceSDK
import Sesame
import SesameStore

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: store-migration-child <database path>\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[1])
FileHandle.standardOutput.write(Data("migrating\n".utf8))
do {
    let pool = try StoreDatabase.openFile(at: url, schema: ReferenceSDKStore.Persistence.schema)
    let version = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    try pool.close()
    FileHandle.standardOutput.write(Data("migrated \(version)\n".utf8))
    exit(0)
} catch {
    FileHandle.standardError.write(Data("store-migration-child: \(error)\n".utf8))
    exit(1)
}
