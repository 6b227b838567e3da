import Foundation
import OutlineEngine

/// Derives a schema from an XML store that comes without its model: enough to inspect,
/// validate and convert it.
///
/// - Entities: one per object type, plus each relationship destination and each entity of
///   the stored version hashes that has no objects; names take their case from the hashes.
/// - Attributes: name and type from `<attribute name type>`, all optional.
/// - Relationships: destination from `destination=`; to-many when `type` is `MIN/0` or an
///   object refers to more than one object; two relationships are inverses when the links of
///   one are exactly the links of the other reversed (compared by a fingerprint of the link
///   multiset); a relationship whose links are their own reverse is its own inverse.
/// - Hierarchy: entity B inherits from A when every object a relationship to A refers to
///   is of a type B covers; properties shared by all concrete entities below a parent move up.
///
/// Names of properties stay lower-case, as the file has them. SAX callbacks never nest, so the
/// state is exempt from dynamic exclusivity checks (`@exclusivity(unchecked)`).
final class XMLSchemaDerivation: StoreObjectSink {
    private struct RelationshipDraft {
        var name: String
        var destination: String
        var isToMany: Bool
        var forward: UInt64 = 0
        var backward: UInt64 = 0
        var links = 0
        var targets: Set<Int> = []
    }

    private enum PropertyDraft {
        case attribute(AttributeType)
        case relationship(RelationshipDraft)
    }

    /// What the file shows about one object type.
    private struct TypeDraft {
        var written: String
        var names: [String] = []
        var drafts: [PropertyDraft] = []
        var lookup = NameLookup<Int>()
        /// Draft indices in property order: a property first seen after another is placed
        /// right after it, so objects that omit nil attributes do not scramble the order.
        var order: [Int] = []
    }

    let file: String
    @exclusivity(unchecked) private var types: [TypeDraft] = []
    @exclusivity(unchecked) private var typeLookup = NameLookup<Int>()
    @exclusivity(unchecked) private var idTypes = ObjectIDMap()
    @exclusivity(unchecked) private var unresolved: [(type: Int, property: Int, id: UInt64)] = []
    @exclusivity(unchecked) private var current = 0
    @exclusivity(unchecked) private var currentID: UInt64 = 0
    /// The draft index of the property read last in the current object.
    @exclusivity(unchecked) private var previous: Int?

    private init(file: String) { self.file = file }

    /// Parses `raw` once and derives its schema.
    static func derive(_ source: XMLSource, file: String, maxDepth: Int, maxTextBytes: Int) throws -> Schema {
        let deriver = XMLSchemaDerivation(file: file)
        let parser = XMLStoreParser(file: file, maxTextBytes: maxTextBytes) { _, _ in deriver }
        try parser.parse(source, maxDepth: maxDepth)
        return try deriver.schema(hashNames: parser.metadata.map { Array($0.versionHashes.keys) } ?? [])
    }

    // MARK: StoreObjectSink

    func beginObject(type: UnsafeBufferPointer<UInt8>, id: UnsafeBufferPointer<UInt8>, line: Int) throws {
        guard let number = XMLValueParsing.objectID(id) else { throw XMLStoreErrors.invalidObjectID(id, file: file, line: line) }
        if let known = typeLookup.find(type) {
            current = known
        } else {
            guard types.count < Self.maximumNames else { throw Self.tooManyNames("entities", file: file, line: line) }
            current = types.count
            let written = String(decoding: type, as: UTF8.self)
            types.append(TypeDraft(written: written))
            typeLookup.add(written, current)
        }
        currentID = number
        previous = nil
        guard idTypes.insert(number, UInt64(current)) else { throw XMLStoreErrors.duplicateID(number, file: file, line: line) }
    }

    func beginAttribute(name: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>?, line: Int) throws -> Bool {
        let text = String(decoding: name, as: UTF8.self)
        let typeText = type.map { String(decoding: $0, as: UTF8.self) }
        guard let typeText, let attributeType = AttributeType(xmlStoreName: typeText.lowercased()), attributeType != .undefined else {
            throw StorageError(
                .corrupt, file: file, at: "line \(line)",
                "attribute \"\(text)\" of z\(currentID) has \(typeText.map { "the unknown type \"\($0)\"" } ?? "no type")",
                hint: "Without its model a store is read by its type= attributes; open it with its model instead.")
        }
        if let index = types[current].lookup.find(name) {
            guard case .attribute(let known) = types[current].drafts[index], known == attributeType else {
                throw StorageError(
                    .corrupt, file: file, at: "line \(line)",
                    "property \"\(text)\" of \(types[current].written) is stored with different kinds or types",
                    hint: "The file is damaged; open it with its model to find out more.")
            }
            previous = index
        } else {
            try add(text, .attribute(attributeType), line: line)
        }
        return false
    }

    func endAttribute(text: UnsafeBufferPointer<UInt8>, line: Int) throws {}

    func relationship(name: UnsafeBufferPointer<UInt8>, idrefs: UnsafeBufferPointer<UInt8>?, attributes: SAXAttributes, line: Int) throws {
        let type = attributes["type"]
        let destination = attributes["destination"]
        let text = String(decoding: name, as: UTF8.self)
        let index: Int
        if let known = types[current].lookup.find(name) {
            guard case .relationship = types[current].drafts[known] else {
                throw StorageError(
                    .corrupt, file: file, at: "line \(line)",
                    "property \"\(text)\" of \(types[current].written) is stored with different kinds or types",
                    hint: "The file is damaged; open it with its model to find out more.")
            }
            index = known
            previous = index
        } else {
            guard let destination, !destination.isEmpty else {
                throw StorageError(
                    .corrupt, file: file, at: "line \(line)", "relationship \"\(text)\" of z\(currentID) has no destination",
                    hint: "Without its model a store is read by its destination= attributes; open it with its model instead.")
            }
            let toMany = type.map { String(decoding: $0, as: UTF8.self).split(separator: "/").last == "0" } ?? false
            index = types[current].drafts.count
            let destinationName = SAXValue.withAmpersandsDecoded(destination) { String(decoding: $0, as: UTF8.self) }.uppercased()
            try add(text, .relationship(RelationshipDraft(name: text, destination: destinationName, isToMany: toMany)), line: line)
        }
        guard case .relationship(var draft) = types[current].drafts[index] else { return }
        types[current].drafts[index] = .attribute(.undefined)
        var count = 0
        if let idrefs {
            try XMLValueParsing.forEachWord(idrefs) { word in
                guard let id = XMLValueParsing.objectID(word) else {
                    throw XMLStoreErrors.invalidReference(
                        word, owner: currentID, property: "\(types[current].written).\(text)",
                        file: file, line: line)
                }
                count += 1
                draft.links += 1
                draft.forward &+= XMLSchemaDerivation.mix(currentID, id)
                draft.backward &+= XMLSchemaDerivation.mix(id, currentID)
                if let type = idTypes.value(id) {
                    draft.targets.insert(Int(type))
                } else {
                    unresolved.append((current, index, id))
                }
            }
        }
        if count > 1 { draft.isToMany = true }
        types[current].drafts[index] = .relationship(draft)
    }

    func endObject(line: Int) throws {}

    /// The most entities, and properties per entity, a model derived from a store may have.
    /// Core Data models stay far below; the derivation's bookkeeping grows with the square of
    /// these counts, so a hostile file with tens of thousands of names would take minutes.
    static let maximumNames = 1_000

    private func add(_ name: String, _ draft: PropertyDraft, line: Int) throws {
        guard types[current].drafts.count < Self.maximumNames else {
            throw Self.tooManyNames("properties of \(types[current].written)", file: file, line: line)
        }
        let index = types[current].drafts.count
        types[current].lookup.add(name, index)
        types[current].names.append(name)
        types[current].drafts.append(draft)
        let position = previous.flatMap { types[current].order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        types[current].order.insert(index, at: position)
        previous = index
    }

    private static func tooManyNames(_ what: String, file: String, line: Int) -> StorageError {
        StorageError(
            .limitExceeded, file: file, at: "line \(line)",
            "the store has more than \(maximumNames) \(what), more than a model derived from a store may have",
            hint: "Open it with the model it was written with, or check that the file is a Core Data store.")
    }

    /// A non-commutative 64-bit hash of a link from `a` to `b` (SplitMix64 finalizer).
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var z = a &* 0x9E37_79B9_7F4A_7C15 &+ (b ^ 0xD1B5_4A32_D192_ED03) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: Building the schema

    private func schema(hashNames: [String]) throws -> Schema {
        for (type, property, id) in unresolved {
            guard case .relationship(var draft) = types[type].drafts[property], let target = idTypes.value(id) else { continue }
            draft.targets.insert(Int(target))
            types[type].drafts[property] = .relationship(draft)
        }
        var universe = XMLSchemaUniverse(types: types.map(\.written), hashNames: hashNames)
        for type in types {
            for case .relationship(let draft) in type.drafts { universe.addDestination(draft.destination, targets: draft.targets) }
        }
        universe.buildHierarchy()

        // Properties, declared as high up the hierarchy as every concrete entity below shares
        // them; a concrete entity declares the rest of its own (its subentities inherit them).
        var remaining: [[(name: String, draft: PropertyDraft)]] = types.map { type in type.order.map { (type.names[$0], type.drafts[$0]) } }
        var declared = [[(name: String, draft: PropertyDraft)]](repeating: [], count: universe.count)
        for entity in universe.topDown {
            // The entity itself first, so that its own drafts win.
            let below = universe.concreteBelow(entity)
            let members = below.contains(entity) ? [entity] + below.filter { $0 != entity } : below
            guard let first = members.first else { continue }
            let names =
                universe.isConcrete(entity)
                ? remaining[entity].map(\.name)
                : remaining[first].map(\.name).filter { name in
                    members.allSatisfy { member in remaining[member].contains { $0.name == name } }
                }
            for name in names {
                var merged: PropertyDraft?
                var absorbed: [Int] = []
                for member in members {
                    guard let draft = remaining[member].first(where: { $0.name == name })?.draft else { continue }
                    guard let current = merged else {
                        merged = draft
                        absorbed.append(member)
                        continue
                    }
                    // A draft that disagrees stays with its entity (the schema check reports it).
                    guard let combined = XMLSchemaDerivation.merge(current, draft) else { continue }
                    merged = combined
                    absorbed.append(member)
                }
                guard let merged, universe.isConcrete(entity) || absorbed.count == members.count else { continue }
                declared[entity].append((name, merged))
                for member in absorbed { remaining[member].removeAll { $0.name == name } }
            }
        }

        let inverses = pairInverses(declared, universe)
        var entities: [Entity] = []
        for u in 0 ..< universe.count {
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            for (j, (name, draft)) in declared[u].enumerated() {
                switch draft {
                case .attribute(let type):
                    attributes.append(Attribute(name: name, type: type))
                case .relationship(let r):
                    let destination = universe.index(of: r.destination).map { universe.names[$0] } ?? r.destination
                    relationships.append(Relationship(name: name, destination: destination, inverse: inverses[u][j], isToMany: r.isToMany))
                }
            }
            entities.append(
                Entity(
                    name: universe.names[u], parent: universe.parents[u].map { universe.names[$0] },
                    isAbstract: !universe.isConcrete(u) && !universe.children[u].isEmpty,
                    attributes: attributes, relationships: relationships))
        }
        entities.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        do {
            return try Schema(name: "", entities: entities)
        } catch let error as EngineError {
            throw StorageError(
                .invalidModel, file: file, "the model derived from the file is inconsistent (\(error.description))",
                hint: "Open the store with the model it was written with.", underlying: error)
        }
    }

    /// Two drafts of one property from different entities, combined, or nil when they disagree.
    private static func merge(_ a: PropertyDraft, _ b: PropertyDraft) -> PropertyDraft? {
        switch (a, b) {
        case (.attribute(let x), .attribute(let y)):
            return x == y ? a : nil
        case (.relationship(let x), .relationship(let y)):
            guard x.destination == y.destination else { return nil }
            var merged = x
            merged.isToMany = x.isToMany || y.isToMany
            merged.forward &+= y.forward
            merged.backward &+= y.backward
            merged.links += y.links
            merged.targets.formUnion(y.targets)
            return .relationship(merged)
        default:
            return nil
        }
    }

    /// Per entity, per declared property: the name of the inverse relationship, if one mirrors it.
    private func pairInverses(_ declared: [[(name: String, draft: PropertyDraft)]], _ universe: XMLSchemaUniverse) -> [[String?]] {
        var result = declared.map { [String?](repeating: nil, count: $0.count) }
        func relationship(_ u: Int, _ j: Int) -> RelationshipDraft? {
            if case .relationship(let r) = declared[u][j].draft { return r }
            return nil
        }
        for u in declared.indices {
            for j in declared[u].indices where result[u][j] == nil {
                guard let r = relationship(u, j), let d = universe.index(of: r.destination) else { continue }
                // Candidates: unpaired relationships declared on the destination that lead back here.
                let candidates = declared[d].indices.filter { k in
                    guard result[d][k] == nil, let s = relationship(d, k) else { return false }
                    return universe.index(of: s.destination) == u && !(d == u && k == j)
                }
                if r.links > 0 {
                    if let k = candidates.first(where: { k in
                        guard let s = relationship(d, k) else { return false }
                        return s.links == r.links && s.backward == r.forward && s.forward == r.backward
                    }) {
                        result[u][j] = declared[d][k].name
                        result[d][k] = declared[u][j].name
                    } else if d == u && r.forward == r.backward {
                        result[u][j] = declared[u][j].name
                    }
                } else if candidates.count == 1, let k = candidates.first, relationship(d, k)?.links == 0 {
                    // Without links, only a lone pair between two entities can be told apart.
                    let others = declared[u].indices.filter { i in
                        guard i != j, i != k || d != u, result[u][i] == nil, let other = relationship(u, i) else { return false }
                        return universe.index(of: other.destination) == d
                    }
                    guard others.isEmpty else { continue }
                    result[u][j] = declared[d][k].name
                    result[d][k] = declared[u][j].name
                }
            }
        }
        return result
    }
}
