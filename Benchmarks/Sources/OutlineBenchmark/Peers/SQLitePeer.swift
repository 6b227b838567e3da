import GRDB

/// The SQLite peer, through GRDB: one `item` table (id, parent, ordering, title, done) with an
/// index on (parent, ordering) for reading children in order, GRDB's defaults otherwise
/// (foreign keys on, rollback journal, `synchronous=FULL`: a commit is durable).
///
/// The peer is measured at its best: rows are inserted through one cached prepared statement
/// (not a record `insert` per row, which builds its SQL and container each time) and fetched
/// into ``ItemRow`` with a hand-written `init(row:)` (not GRDB's slower Codable decoding).
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
            let insert = try db.makeStatement(sql: "INSERT INTO item (id, parentID, ordering, title, done) VALUES (?, ?, ?, ?, ?)")
            for row in rows {
                try insert.execute(arguments: [row.id, row.parentID, row.ordering, row.title, row.done])
            }
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

extension ItemRow: FetchableRecord, TableRecord {
    static let databaseTableName = "item"

    init(row: Row) throws {
        id = row["id"]
        parentID = row["parentID"]
        ordering = row["ordering"]
        title = row["title"]
        done = row["done"]
    }
}
