import Foundation
import OutlineEngine

/// Decodes an inflated body straight into the columns of a ``GraphLoader``.
///
/// Every count is checked against limits and the bytes left before anything is allocated for
/// it, every reference against the entity and row count it points into; the loader then
/// derives the inverse sides the file leaves out and checks the pairs it stores twice.
struct BodyDecoder {
    let schema: Schema
    let file: String
    var loader: GraphLoader
    /// The entities of the body in body order: schema index and row count.
    var directory: [(entity: EntityIndex, rows: Int)] = []
    /// To-one inverse sides filled while decoding the side the file stores, by entity and relationship.
    var mirrors: [Slot: RelationshipColumn] = [:]
    /// The relationships the file supplies, each named by its declaring entity.
    var suppliedRelationships: Set<Slot> = []
    /// The buffer `body` lives in, whose pages are given back once decoded (nil: keep them).
    var pages: InflatedBuffer?
    /// The whole body, and what still inflates it, for the work done beside decoding.
    var body = UnsafeRawBufferPointer(start: nil, count: 0)
    var feed: InflateFeed?
    /// The string and binary columns whose values are still being inflated and checked, in body order.
    var arenas: [PendingArena] = []
    /// Told how far decoding is after each column; stops decoding when the load is cancelled.
    var monitor = LoadMonitor.current
    /// The size of the body, for progress.
    var bodySize = 0

    /// A relationship of an entity.
    struct Slot: Hashable {
        var entity: EntityIndex
        var relationship: RelationshipIndex
    }

    init(schema: Schema, file: String) {
        self.schema = schema
        self.file = file
        self.loader = GraphLoader(schema: schema)
    }

    /// Decodes `body` (inflated) into a graph; `header` supplies the object counts and next id.
    ///
    /// With `pages`, the body is read front to back once and each column's bytes are given back
    /// as soon as the column is decoded, so the body and the graph are not resident together.
    /// With `feed`, `body` is still being inflated and is read only as far as the feed says.
    /// With a history section, its bytes are returned as they are, with the digest of the
    /// objects section (``StateDigest``) taken before any page is given back.
    static func decode(
        _ body: UnsafeRawBufferPointer, schema: Schema, header: BinaryHeader, file: String,
        releasing pages: InflatedBuffer? = nil, feed: InflateFeed? = nil
    ) throws -> (ObjectGraph, StoredHistory?) {
        var decoder = BodyDecoder(schema: schema, file: file)
        decoder.pages = pages
        decoder.body = body
        decoder.feed = feed
        decoder.bodySize = body.count
        var cursor = ByteCursor(body, file: file, region: .body, context: "the body", feed: feed)
        let sections = try SectionTable.read(&cursor, place: "the body") { BinaryFormat.BodySection(rawValue: $0)?.name }
        guard var objects = sections.first(where: { $0.id == BinaryFormat.BodySection.objects.rawValue })?.cursor else {
            throw cursor.corrupt("the body has no objects section", at: 0)
        }
        let historySection = sections.first(where: { $0.id == BinaryFormat.BodySection.history.rawValue })?.cursor
        // The objects' digest, taken beside decoding when the body still inflates.
        var digest: BodyDigest?
        var digestNow: [UInt8]?
        if historySection != nil {
            let start = objects.origin + objects.position
            if let feed {
                digest = BodyDigest(of: start ..< start + objects.remaining, in: body, feed: feed, pages: pages)
            } else {
                digestNow = StateDigest.of(objectsSection: try objects.peekBytes(objects.remaining))
            }
        }
        defer {
            digest?.stop()
            _ = digest?.wait()
            decoder.stopArenas()
        }
        do {
            try decoder.decodeObjects(&objects, counts: header.objectCounts)
            try objects.expectEnd()
            try decoder.finishArenas()
        } catch {
            // A string column's invalid text comes before what failed further on.
            try decoder.finishArenas(afterFailure: true)
            throw error
        }
        var history: StoredHistory?
        if var section = historySection {
            let payload = Array(try section.peekBytes(section.remaining))
            guard let objectsDigest = digestNow ?? digest?.wait() else { throw InflateFeed.ChunkFailed() }
            history = .binary(payload: payload, objectsDigest: objectsDigest)
        }
        try decoder.checkUniqueIDs()
        decoder.loader.declareNextID(header.nextObjectID)
        try decoder.monitor?.progress(.checking, 0, of: 1)
        do {
            return (try decoder.loader.finish(), history)
        } catch let error as EngineError {
            throw StorageError(
                .corrupt, file: file, at: error.location, error.message,
                hint: "The file is damaged; \(BackupAdvice.restore(file)).", underlying: error)
        }
    }

    private mutating func decodeObjects(_ c: inout ByteCursor, counts: [(name: String, count: Int)]) throws {
        c.context = "the entity directory"
        let count = try c.readCount("the entity count", limit: schema.entities.count, minimumBytesEach: 2)
        var rowCounts = [Int?](repeating: nil, count: schema.entities.count)
        var totalRows = 0
        for _ in 0 ..< count {
            let at = c.position
            let name = try c.readString("an entity name")
            guard let entity = schema.entityIndex(named: name) else {
                throw c.corrupt("the body holds entity \"\(name)\", which the model does not have", at: at)
            }
            guard rowCounts[entity] == nil else { throw c.corrupt("the body lists entity \(name) twice", at: at) }
            let rowsAt = c.position
            let rows = try c.readCount("the object count of entity \(name)", limit: BinaryFormat.maximumRows, minimumBytesEach: 0)
            totalRows += rows
            guard totalRows <= c.remaining else {
                throw c.corrupt(
                    "the body declares \(totalRows) objects, more than its \(BinaryError.byteCount(c.remaining)) left can hold", at: rowsAt)
            }
            if rows > 0 && schema.entities[entity].isAbstract {
                throw c.corrupt("entity \(name) is abstract, but the body holds \(rows) objects of it", at: rowsAt)
            }
            rowCounts[entity] = rows
            directory.append((entity, rows))
        }
        for (name, expected) in counts {
            let actual = schema.entityIndex(named: name).flatMap { rowCounts[$0] } ?? 0
            guard actual == expected else {
                throw c.corrupt("the header counts \(expected) objects of entity \(name), but the body holds \(actual)", at: 0)
            }
        }
        for (entity, rows) in directory {
            try decodeTable(entity, rows: rows, from: &c)
        }
        installMirrors()
    }

    /// Puts the inverse sides derived while decoding into their tables, unless the file also
    /// supplies that relationship (then the loader checks the two sides against each other).
    private mutating func installMirrors() {
        for (slot, column) in mirrors.sorted(by: { ($0.key.entity, $0.key.relationship) < ($1.key.entity, $1.key.relationship) }) {
            guard !suppliedRelationships.contains(declaring(slot)) else { continue }
            loader.withTable(slot.entity) { $0.relationships[slot.relationship] = column }
            loader.markMirrored(entity: slot.entity, relationship: slot.relationship)
            // Every member names its owner, a row of an entity that holds the inverse.
            loader.markDestinationsChecked(entity: slot.entity, relationship: slot.relationship)
        }
        mirrors = [:]
    }

    /// `slot` named by the entity that declares its relationship, which all subentities share.
    func declaring(_ slot: Slot) -> Slot {
        Slot(entity: schema[slot.entity].declaringEntity(of: slot.relationship), relationship: slot.relationship)
    }

    private mutating func decodeTable(_ entity: EntityIndex, rows n: Int, from c: inout ByteCursor) throws {
        let info = schema.infos[entity]
        c.context = "the ids of entity \(info.name)"
        // Straight into the pages the table keeps (the loader adopts them).
        var previous: UInt64 = 0
        let ids = try PagedArray<UInt64>(unsafeUninitializedCount: n) { page, start, initialized in
            for j in 0 ..< page.count {
                let at = c.position
                let delta = try c.readVarint()
                var id = delta
                if start + j > 0 {
                    let (sum, overflow) = previous.addingReportingOverflow(delta)
                    id = overflow ? UInt64.max : sum &+ 1
                }
                guard id <= BinaryFormat.maximumObjectID else {
                    throw c.corrupt("object id \(id) of entity \(info.name) is over the largest allowed id", at: at)
                }
                page[j] = id
                initialized = j + 1
                previous = id
            }
        }
        loader.appendObjects(entity: entity, ids: ids)

        c.context = "the attribute columns of entity \(info.name)"
        let attributeCount = try c.readCount(
            "the attribute column count of entity \(info.name)",
            limit: info.attributes.count, minimumBytesEach: 3)
        var filled = [Bool](repeating: false, count: info.attributes.count)
        for _ in 0 ..< attributeCount {
            let at = c.position
            let name = try c.readString("an attribute name of entity \(info.name)")
            guard let a = info.attributeIndex(named: name), !info.attributes[a].isTransient else {
                throw c.corrupt("entity \(info.name) has no stored attribute \"\(name)\"", at: at)
            }
            guard !filled[a] else { throw c.corrupt("attribute \(info.name).\(name) appears twice", at: at) }
            let typeAt = c.position
            let code = try c.readVarint()
            let type = info.attributes[a].type
            guard code == UInt64(type.rawValue) else {
                throw c.corrupt(
                    "attribute \(info.name).\(name) has type code \(code), but the model says \(type.rawValue) (\(type.modelName))", at: typeAt)
            }
            let column = try decodeAttribute(a, of: info, ids: ids, from: &c)
            loader.withTable(entity) { $0.attributes[a] = column }
            pages?.release(below: c.origin + c.position)
            try monitor?.progress(.decoding, c.origin + c.position, of: bodySize)
            filled[a] = true
        }
        for a in info.attributeIndices where !filled[a] {
            let column = AttributeColumn.allNil(type: info.attributes[a].type, rows: n)
            loader.withTable(entity) { $0.attributes[a] = column }
        }

        c.context = "the relationship columns of entity \(info.name)"
        let relationshipCount = try c.readCount(
            "the relationship column count of entity \(info.name)",
            limit: info.relationships.count, minimumBytesEach: 3)
        var linked = [Bool](repeating: false, count: info.relationships.count)
        for _ in 0 ..< relationshipCount {
            let at = c.position
            let name = try c.readString("a relationship name of entity \(info.name)")
            guard let r = info.relationshipIndex(named: name), !info.relationships[r].isTransient else {
                throw c.corrupt("entity \(info.name) has no stored relationship \"\(name)\"", at: at)
            }
            guard !linked[r] else { throw c.corrupt("relationship \(info.name).\(name) appears twice", at: at) }
            let column = try decodeRelationship(info, r, ids: ids, from: &c)
            loader.withTable(entity) { $0.relationships[r] = column }
            // decodeRelationship resolved every reference against the directory's entities and rows.
            loader.markDestinationsChecked(entity: entity, relationship: r)
            pages?.release(below: c.origin + c.position)
            try monitor?.progress(.decoding, c.origin + c.position, of: bodySize)
            loader.markSupplied(entity: entity, relationship: r)
            suppliedRelationships.insert(declaring(Slot(entity: entity, relationship: r)))
            linked[r] = true
        }
        for r in info.relationshipIndices where !linked[r] {
            var column = RelationshipColumn(isToMany: info.relationships[r].isToMany)
            if column.isToMany {
                column.many = ListColumn(emptyRows: n)
            } else {
                column.single = PagedArray(repeating: RelationshipColumn.none, count: n)
            }
            loader.withTable(entity) { $0.relationships[r] = column }
        }
    }

    /// Object ids are unique across the document: each table is ascending (checked while
    /// decoding); tables whose id ranges overlap are merged to find a shared id.
    private func checkUniqueIDs() throws {
        let tables = loader.tables.filter { !$0.ids.isEmpty }
        guard tables.count > 1 else { return }
        let ranges = tables.map { (table: $0, low: $0.ids[0], high: $0.ids[$0.ids.count - 1]) }.sorted { $0.low < $1.low }
        for i in ranges.indices.dropFirst() where ranges[i].low <= ranges[i - 1].high {
            for j in 0 ..< i where ranges[j].high >= ranges[i].low {
                if let shared = Self.sharedElement(ranges[j].table.ids, ranges[i].table.ids) {
                    throw BinaryError.corrupt(
                        file, at: nil,
                        "object id z\(shared) is used by entities \(schema.entities[ranges[j].table.entity].name) and \(schema.entities[ranges[i].table.entity].name)"
                    )
                }
            }
        }
    }

    /// An element of both ascending arrays, if any.
    static func sharedElement<Ids: RandomAccessCollection<UInt64>>(_ a: Ids, _ b: Ids) -> UInt64? where Ids.Index == Int {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] { return a[i] }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return nil
    }
}
