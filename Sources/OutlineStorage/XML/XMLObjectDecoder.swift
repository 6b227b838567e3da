import Foundation
import OutlineEngine

/// Decodes the objects of an XML store straight into a ``GraphLoader``, by the schema's types.
///
/// Attribute values go into the loader's columns as they are read. Relationships name objects
/// that may come later in the file, so their ids are kept in flat arrays and resolved once
/// every object has been read; both sides of each inverse pair go to the loader, which checks
/// that they mirror each other.
///
/// SAX callbacks arrive one at a time and never nest, so the mutable state is exempt from
/// dynamic exclusivity checks (`@exclusivity(unchecked)`), which cost a third of the decoding
/// time otherwise.
final class XMLObjectDecoder: StoreObjectSink {
    private enum Property {
        case attribute(AttributeIndex)
        case relationship(RelationshipIndex)
    }

    let file: String
    let schema: Schema
    @exclusivity(unchecked) private var loader: GraphLoader
    @exclusivity(unchecked) private var ids: ObjectIDMap
    @exclusivity(unchecked) private var entities = NameLookup<EntityIndex>()
    @exclusivity(unchecked) private var properties: [NameLookup<Property>]
    private let attributeTypes: [[AttributeType]]
    /// Per entity, per attribute: whether it is transient (not stored).
    private let attributeIsTransient: [[Bool]]
    /// Per entity, per relationship: whether it is transient, and whether it is to-many.
    private let relationshipIsTransient: [[Bool]]
    private let relationshipIsToMany: [[Bool]]

    @exclusivity(unchecked) private var object = ManagedObject(entity: EntityIndex(0), row: 0)
    @exclusivity(unchecked) private var objectID: UInt64 = 0
    /// The attribute whose value is being read; nil outside an attribute element or for a transient one.
    @exclusivity(unchecked) private var attribute: AttributeIndex?
    @exclusivity(unchecked) private var attributeLine = 0
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    /// Relationships as read: owner (entity << 40 | row), relationship index, first id in
    /// `pendingIDs`, line; the ids of entry i end where those of entry i + 1 start.
    @exclusivity(unchecked) private var pendingOwners: [UInt64] = []
    @exclusivity(unchecked) private var pendingRelationships: [Int32] = []
    @exclusivity(unchecked) private var pendingStarts: [Int] = []
    @exclusivity(unchecked) private var pendingLines: [Int32] = []
    @exclusivity(unchecked) private var pendingIDs: [UInt64] = []
    /// Per entity, per relationship: whether an empty one has been read (and marked supplied).
    @exclusivity(unchecked) private var suppliedEmpty: [[Bool]]
    /// Per entity, per relationship: the row of the last object that listed members in it (-1
    /// for none), so that a relationship an object lists twice keeps its last list, as before.
    @exclusivity(unchecked) private var lastListedRow: [[Int]]
    @exclusivity(unchecked) private var members: [ManagedObject] = []
    /// Told how far decoding is every 65,536 objects; stops decoding when the load is cancelled.
    private let monitor = LoadMonitor.current
    private let expectedObjects: Int
    @exclusivity(unchecked) private var objectCount = 0
    /// Per entity: the objects read so far (its table's row count).
    @exclusivity(unchecked) private var rowCounts: [Int]

    /// - Parameter expectedObjects: a bound on the number of objects, used to reserve memory.
    init(schema: Schema, file: String, expectedObjects: Int, expectedMaxID: UInt64) {
        self.file = file
        self.schema = schema
        self.expectedObjects = expectedObjects
        loader = GraphLoader(schema: schema)
        ids = ObjectIDMap(expectedMaxID: expectedMaxID)
        properties = []
        attributeTypes = schema.infos.map { $0.attributes.map(\.type) }
        attributeIsTransient = schema.infos.map { $0.attributes.map(\.isTransient) }
        relationshipIsTransient = schema.infos.map { $0.relationships.map(\.isTransient) }
        relationshipIsToMany = schema.infos.map { $0.relationships.map(\.isToMany) }
        suppliedEmpty = schema.infos.map { [Bool](repeating: false, count: $0.relationships.count) }
        lastListedRow = schema.infos.map { [Int](repeating: -1, count: $0.relationships.count) }
        rowCounts = [Int](repeating: 0, count: schema.infos.count)
        for info in schema.infos {
            if !info.entity.isAbstract { entities.add(info.name, info.index) }
            var lookup = NameLookup<Property>()
            for (i, a) in zip(info.attributeIndices, info.attributes) { lookup.add(a.name, .attribute(i)) }
            for (i, r) in zip(info.relationshipIndices, info.relationships) { lookup.add(r.name, .relationship(i)) }
            properties.append(lookup)
        }
        let concrete = schema.infos.filter { !$0.entity.isAbstract }
        if concrete.count == 1, expectedObjects > 0 {
            loader.reserve(entity: concrete[0].index, count: expectedObjects)
        }
        // Room for two non-empty relationships per object (an outline item has its parent and,
        // one in ten, children) and two ids each: growing these arrays part-way would copy them
        // while both copies are resident. Pages never written are never resident.
        pendingOwners.reserveCapacity(2 * expectedObjects)
        pendingRelationships.reserveCapacity(2 * expectedObjects)
        pendingStarts.reserveCapacity(2 * expectedObjects + 1)
        pendingLines.reserveCapacity(2 * expectedObjects)
        pendingIDs.reserveCapacity(2 * expectedObjects)
    }

    // MARK: StoreObjectSink

    func beginObject(type: UnsafeBufferPointer<UInt8>, id: UnsafeBufferPointer<UInt8>, line: Int) throws {
        guard let number = XMLValueParsing.objectID(id) else {
            throw XMLStoreErrors.invalidObjectID(id, file: file, line: line)
        }
        guard number <= StoreLimits.maximumObjectID else {
            throw XMLStoreErrors.idOverLimit("the object id z\(number) is over", file: file, line: line)
        }
        guard let entity = entities.find(type) ?? fallbackEntity(type) else {
            if let index = schema.entityIndex(caseInsensitive: String(decoding: type, as: UTF8.self)) {
                throw StorageError(
                    .corrupt, file: file, at: "line \(line)",
                    "object z\(number) is of entity \(schema.entities[index].name), which is abstract",
                    hint: "Abstract entities have no objects of their own; the file does not match the model.")
            }
            throw StorageError(
                .incompatibleModel, file: file, at: "line \(line)",
                "object z\(number) is of entity \(XMLValueParsing.quoted(type)), which the model does not have",
                hint: "Open the store with the model it was written with.")
        }
        // Counted here: reading `loader.tables[entity]` would copy the table (a retain and
        // release of every column) for each object.
        guard rowCounts[entity] < StoreLimits.maximumObjectsPerEntity else {
            throw StorageError(
                .limitExceeded, file: file, at: "line \(line)",
                "the store holds more than \(StoreLimits.maximumObjectsPerEntity) objects of entity \(schema.entities[entity].name)",
                hint: "No document holds that many objects of one entity; the file is not a store or is hostile.")
        }
        object = loader.appendObjectAhead(entity: entity, id: ObjectID(number))
        rowCounts[entity] += 1
        objectID = number
        objectCount += 1
        if objectCount & 0xFFFF == 0, let monitor { try monitor.progress(.decoding, objectCount, of: max(expectedObjects, objectCount)) }
        guard ids.insert(number, UInt64(object.entity.rawValue) << 40 | UInt64(object.row)) else {
            throw XMLStoreErrors.duplicateID(number, file: file, line: line)
        }
    }

    func beginAttribute(name: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>?, line: Int) throws -> Bool {
        attribute = nil
        switch try property(name, line) {
        case .attribute(let index):
            guard !attributeIsTransient[object.entity][index] else { return false }
            attribute = index
            attributeLine = line
            return true
        case .relationship(let index):
            let info = schema.infos[object.entity]
            throw StorageError(
                .incompatibleModel, file: file, at: "line \(line)",
                "z\(objectID) stores \(info.name).\(info.relationships[index].name) as an attribute, but the model has a relationship of that name",
                hint: "Open the store with the model it was written with.")
        }
    }

    func endAttribute(text: UnsafeBufferPointer<UInt8>, line: Int) throws {
        guard let a = attribute else { return }
        let type = attributeTypes[object.entity][a]
        switch type {
        case .string, .uri, .objectID:
            if XMLStringEscaping.mayHoldEscapes(text) {
                scratch.removeAll(keepingCapacity: true)
                XMLStringEscaping.unescape(text, into: &scratch)
                try checkValueSize(scratch.count)
                scratch.withUnsafeBytes { bytes in loader.setBytes(object, a, bytes) }
            } else {
                try checkValueSize(text.count)
                loader.setBytes(object, a, UnsafeRawBufferPointer(text))
            }
        case .integer16, .integer32, .integer64, .boolean:
            if type == .boolean {
                guard let flag = XMLValueParsing.boolean(text) else { throw invalid(text, type) }
                loader.setBoolean(object, a, flag)
            } else {
                guard let number = XMLValueParsing.integer(text) ?? XMLValueParsing.double(text).flatMap(Int64.init(exactly:)),
                    type.integerRange?.contains(number) ?? true
                else { throw invalid(text, type) }
                loader.setInteger(object, a, number)
            }
        case .double, .float, .date:
            guard let value = XMLValueParsing.double(text) else { throw invalid(text, type) }
            if type == .date && !StoreLimits.isStorableDate(value) {
                throw invalid(text, type, what: "a date a document may hold (a finite time between the years 0 and 9999)")
            }
            loader.setDouble(object, a, value)
        case .binary, .transformable:
            guard XMLValueParsing.base64(text, into: &scratch) else { throw invalid(text, type, what: "base64 data") }
            try checkValueSize(scratch.count)
            scratch.withUnsafeBytes { bytes in loader.setBytes(object, a, bytes) }
        case .decimal:
            let string = String(decoding: XMLValueParsing.trimmed(text), as: UTF8.self)
            // `NaN` is how the writers spell a decimal that is not a number.
            let parsed =
                string == "NaN"
                ? Decimal.nan
                : string.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) })
                    ? Decimal(string: string, locale: Locale(identifier: "en_US_POSIX")) : nil
            guard let value = parsed else { throw invalid(text, type) }
            loader.setAttribute(object, a, .decimal(value))
        case .uuid:
            guard let value = UUID(uuidString: String(decoding: XMLValueParsing.trimmed(text), as: UTF8.self)) else {
                throw invalid(text, type)
            }
            loader.setAttribute(object, a, .uuid(value))
        case .undefined:
            break
        }
    }

    func relationship(name: UnsafeBufferPointer<UInt8>, idrefs: UnsafeBufferPointer<UInt8>?, attributes: SAXAttributes, line: Int) throws {
        guard case .relationship(let r) = try property(name, line) else {
            let info = schema.infos[object.entity]
            throw StorageError(
                .incompatibleModel, file: file, at: "line \(line)",
                "z\(objectID) stores \(info.name).\(String(decoding: name, as: UTF8.self)) as a relationship, but the model has an attribute of that name",
                hint: "Open the store with the model it was written with.")
        }
        guard !relationshipIsTransient[object.entity][r] else { return }
        let start = pendingIDs.count
        if let idrefs {
            try XMLValueParsing.forEachWord(idrefs) { word in
                guard let id = XMLValueParsing.objectID(word) else {
                    throw XMLStoreErrors.invalidReference(
                        word, owner: objectID, property: propertyName(relationship: r),
                        file: file, line: line)
                }
                pendingIDs.append(id)
            }
        }
        if pendingIDs.count - start > StoreLimits.maximumRelationshipMembers {
            throw StorageError(
                .limitExceeded, file: file, at: "line \(line)",
                "z\(objectID) \(propertyName(relationship: r)) lists \(pendingIDs.count - start) objects, more than one relationship may (\(StoreLimits.maximumRelationshipMembers))",
                hint: "No document holds relationships that long; the file is not a store or is hostile.")
        }
        if !relationshipIsToMany[object.entity][r] && pendingIDs.count - start > 1 {
            throw StorageError(
                .corrupt, file: file, at: "line \(line)",
                "z\(objectID) \(propertyName(relationship: r)) is to-one but refers to \(pendingIDs.count - start) objects",
                hint: "The file does not match the model; open it with the model it was written with.")
        }
        if pendingIDs.count == start {
            // Empty: the column already says so; only note that the file supplied this side
            // (most items of an outline are leaves, so this keeps most entries out of memory).
            if !suppliedEmpty[object.entity][r] {
                suppliedEmpty[object.entity][r] = true
                loader.markSupplied(entity: object.entity, relationship: r)
            }
            return
        }
        let listedBefore = lastListedRow[object.entity][r] == object.row
        lastListedRow[object.entity][r] = object.row
        if !listedBefore && linkNow(r, from: start) { return }
        pendingOwners.append(UInt64(object.entity.rawValue) << 40 | UInt64(object.row))
        pendingRelationships.append(Int32(r.rawValue))
        pendingStarts.append(start)
        pendingLines.append(Int32(clamping: line))
    }

    func endObject(line: Int) throws {}

    /// Sets relationship `r` of the current object to the members at `pendingIDs[start...]` and
    /// drops them from there, when every one of them has been read already (an item's parent
    /// comes before it): most relationships then never wait in the pending arrays. Returns
    /// false, changing nothing, when one of them is still to come.
    private func linkNow(_ r: RelationshipIndex, from start: Int) -> Bool {
        if !relationshipIsToMany[object.entity][r] {
            guard let raw = ids.value(pendingIDs[start]) else { return false }
            loader.setRelated(object, r, ManagedObject(entity: EntityIndex(Int(raw >> 40)), row: Int(raw & (1 << 40 - 1))))
        } else {
            members.removeAll(keepingCapacity: true)
            for k in start ..< pendingIDs.count {
                guard let raw = ids.value(pendingIDs[k]) else { return false }
                members.append(ManagedObject(entity: EntityIndex(Int(raw >> 40)), row: Int(raw & (1 << 40 - 1))))
            }
            // A copy of exactly its size (see `finish`).
            loader.setRelated(object, r, Array(members[...]))
        }
        pendingIDs.removeSubrange(start...)
        return true
    }

    // MARK: Finishing

    /// Resolves the relationships and returns the graph.
    ///
    /// - Parameter nextObjectID: the file's `nextObjectID`; new ids start above it and above every id in use.
    func finish(nextObjectID: UInt64?) throws -> ObjectGraph {
        try monitor?.progress(.checking, 0, of: 1)
        pendingStarts.append(pendingIDs.count)
        for i in 0 ..< pendingOwners.count {
            let owner = ManagedObject(entity: EntityIndex(Int(pendingOwners[i] >> 40)), row: Int(pendingOwners[i] & (1 << 40 - 1)))
            let r = RelationshipIndex(Int(pendingRelationships[i]))
            members.removeAll(keepingCapacity: true)
            for k in pendingStarts[i] ..< pendingStarts[i + 1] {
                guard let raw = ids.value(pendingIDs[k]) else {
                    let info = schema.infos[owner.entity]
                    let ownerID = loader.tables[owner.entity].ids[owner.row]
                    throw StorageError(
                        .corrupt, file: file, at: "line \(pendingLines[i])",
                        "z\(ownerID) \(info.name).\(info.relationships[r].name) refers to z\(pendingIDs[k]), which is not in the file",
                        hint: "The file is damaged; \(BackupAdvice.restore(file)).")
                }
                members.append(ManagedObject(entity: EntityIndex(Int(raw >> 40)), row: Int(raw & (1 << 40 - 1))))
            }
            if relationshipIsToMany[owner.entity][r] {
                // A copy of exactly its size: storing `members` itself would share its buffer,
                // and the next `removeAll(keepingCapacity:)` would then allocate a new buffer as
                // large as the longest list so far for every row (gigabytes for a store whose
                // root has a million children).
                loader.setRelated(owner, r, members.isEmpty ? [] : Array(members[...]))
            } else {
                loader.setRelated(owner, r, members.first)
            }
        }
        // Nothing of the file is needed any more: free it before the loader checks the graph.
        pendingOwners = []
        pendingRelationships = []
        pendingStarts = []
        pendingLines = []
        pendingIDs = []
        members = []
        ids = ObjectIDMap()
        if let nextObjectID { loader.declareNextID(nextObjectID == .max ? .max : nextObjectID + 1) }
        do {
            return try loader.finish()
        } catch let error as EngineError {
            throw StorageError(
                .corrupt, file: file, at: error.location, error.message,
                hint: (error.hint.map { $0 + " " } ?? "") + BackupAdvice.restore(file, capitalized: true) + ".", underlying: error)
        }
    }

    // MARK: Helpers

    /// `Entity.relationship` of the current object, for messages.
    private func propertyName(relationship r: RelationshipIndex) -> String {
        let info = schema.infos[object.entity]
        return "\(info.name).\(info.relationships[r].name)"
    }

    private func property(_ name: UnsafeBufferPointer<UInt8>, _ line: Int) throws -> Property {
        if let found = properties[object.entity].find(name) { return found }
        let info = schema.infos[object.entity]
        let text = String(decoding: name, as: UTF8.self)
        if let a = info.attributeIndex(caseInsensitive: text) { return .attribute(a) }
        if let r = info.relationshipIndex(caseInsensitive: text) { return .relationship(r) }
        throw StorageError(
            .incompatibleModel, file: file, at: "line \(line)",
            "z\(objectID) has a property \"\(text)\", which entity \(info.name) of the model does not have",
            hint: "Open the store with the model it was written with.")
    }

    private func fallbackEntity(_ type: UnsafeBufferPointer<UInt8>) -> EntityIndex? {
        guard let index = schema.entityIndex(caseInsensitive: String(decoding: type, as: UTF8.self)),
            !schema.entities[index].isAbstract
        else { return nil }
        return index
    }

    /// Refuses a string or binary value longer than any document may hold.
    private func checkValueSize(_ count: Int) throws {
        guard count > StoreLimits.maximumValueBytes else { return }
        let info = schema.infos[object.entity]
        let name = attribute.map { info[$0].name } ?? "?"
        throw StorageError(
            .limitExceeded, file: file, at: "line \(attributeLine)",
            "z\(objectID) \(info.name).\(name) holds \(XMLValueParsing.grouped(count)) bytes, more than a value may (\(XMLValueParsing.grouped(StoreLimits.maximumValueBytes)))",
            hint: "No document holds values that long; the file is not a store or is hostile.")
    }

    private func invalid(_ text: UnsafeBufferPointer<UInt8>, _ type: AttributeType, what: String? = nil) -> StorageError {
        let info = schema.infos[object.entity]
        let name = attribute.map { info[$0].name } ?? "?"
        return StorageError(
            .corrupt, file: file, at: "line \(attributeLine)",
            "z\(objectID) \(info.name).\(name) holds \(XMLValueParsing.quoted(text)), which is not \(what ?? "a valid \(type.modelName) value")",
            hint: "Fix the value in the file or \(BackupAdvice.restore(file, object: "the file")).")
    }
}
