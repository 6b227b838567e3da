import GRDB

/// The SQLite peer, through GRDB: one `item` table (id, parent, ordering, title, done) with an
/// index on (parent, ordering) for reading children in order, GRDB's defaults otherwise
/// (foreign keys on, rollback journal, `synchronous=FULL`: a commit is durable).
///
/// Rows map to ``ItemRow`` with hand-written `init(row:)` and `encode(to:)`, GRDB's fastest
/// record path (its Codable path is slower), so the peer is measured at its best.
enum SQLitePeer {
    /// Creates the database at `path` (which must not exist) and inserts every row in one transaction.
    static func insertAll(_ rows: [ItemRow], into path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.create(table: ItemRow.databaseTableName) { table in
                table.primaryKey("id", .integer)
                table.column("parentID", .integer).references(ItemRow.databaseTableName, onDelete: .cascade)
                table.column("ordering", .integer).notNull()
                table.column("title", .text).notNull()
                table.column("done", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "item_on_parent", on: ItemRow.databaseTableName, columns: ["parentID", "ordering"])
            for row in rows { try row.insert(db) }
        }
        try queue.close()
    }

    /// Opens the database at `path` and fetches every row, in id order.
    static func fetchAll(from path: String) throws -> [ItemRow] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let rows = try queue.read { db in try ItemRow.order(Column("id")).fetchAll(db) }
        try queue.close()
        return rows
    }
}

extension ItemRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "item"

    init(row: Row) throws {
        id = row["id"]
        parentID = row["parentID"]
        ordering = row["ordering"]
        title = row["title"]
        done = row["done"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["parentID"] = parentID
        container["ordering"] = ordering
        container["title"] = title
        container["done"] = done
    }
}
