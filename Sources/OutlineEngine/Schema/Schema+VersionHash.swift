import Crypto
import Foundation

// Core Data's version hashes: 32-byte SHA-256 digests that change exactly when the stored
// shape of a property, an entity or the whole model changes. Stores record the entity hashes
// (`NSStoreModelVersionHashes`), so a store can tell whether a model can open it unchanged.
//
// Recipe (strings UTF-8 without terminator, integers little-endian, "‖" is concatenation):
//   property     = SHA256(name ‖ u16 flags (1 optional, 2 transient) ‖ versionHashModifier?)
//   attribute    = SHA256(property ‖ u32 type code ‖ [0x01 if external storage] ‖ [0x01 if preserved in history])
//   relationship = SHA256(property ‖ destination ‖ [inverse unless own inverse] ‖ u32 maxCount ‖ u32 minCount ‖ [u16 1 if ordered])
//   entity       = SHA256(name ‖ u8 isAbstract ‖ [superentity hash] ‖ stored property hashes sorted by name
//                         ‖ versionHashModifier? ‖ uniqueness constraints joined with ".", sorted)
//   model        = SHA256(entity hashes in entity-name order)

extension Attribute {
    /// The attribute's version hash: 32 bytes that change when its stored shape changes.
    ///
    /// Hashed: name, optional and transient flags, version hash modifier, type, external
    /// binary storage, preservation in history. Not hashed: default, bounds, regular
    /// expression, renaming identifier, transformer name, user info.
    public var versionHash: Data {
        var bytes = VersionHashing.propertyHash(
            name: name, isOptional: isOptional, isTransient: isTransient, modifier: versionHashModifier)
        VersionHashing.append(UInt32(truncatingIfNeeded: type.rawValue), to: &bytes)
        if allowsExternalBinaryDataStorage { bytes.append(1) }
        if preservesValueInHistoryOnDeletion { bytes.append(1) }
        return VersionHashing.sha256(bytes)
    }
}

extension Relationship {
    /// The relationship's version hash, for the relationship as declared on entity `entityName`.
    ///
    /// The entity name decides whether the relationship is its own inverse (a symmetric
    /// relationship such as `Person.friends`), whose inverse name is then not hashed.
    /// Hashed: name, optional and transient flags, version hash modifier, destination,
    /// inverse, counts as the model states them, ordering. Not hashed: delete rule,
    /// renaming identifier, user info.
    public func versionHash(declaredOn entityName: String) -> Data {
        var bytes = VersionHashing.propertyHash(
            name: name, isOptional: isOptional, isTransient: isTransient, modifier: versionHashModifier)
        bytes.append(contentsOf: Array(destination.utf8))
        if let inverse, !(inverse == name && destination == entityName) {
            bytes.append(contentsOf: Array(inverse.utf8))
        }
        VersionHashing.append(UInt32(truncatingIfNeeded: maxCount), to: &bytes)
        VersionHashing.append(UInt32(truncatingIfNeeded: minCount), to: &bytes)
        if isOrdered { VersionHashing.append(UInt16(1), to: &bytes) }
        return VersionHashing.sha256(bytes)
    }
}

extension Schema {
    /// The version hash of every property of entity `index`, inherited ones included, by name.
    ///
    /// Transient properties are listed too, although they do not take part in the entity hash.
    public func propertyVersionHashes(ofEntity index: EntityIndex) -> [String: Data] {
        var hashes: [String: Data] = [:]
        for declaring in declarationChain(of: index) {
            let entity = entities[declaring]
            for attribute in entity.attributes { hashes[attribute.name] = attribute.versionHash }
            for relationship in entity.relationships {
                hashes[relationship.name] = relationship.versionHash(declaredOn: entity.name)
            }
        }
        return hashes
    }

    /// The version hash of entity `index` (an index into ``entities``).
    ///
    /// Every entity's hash is computed once, on first use, superentities first (each hash
    /// includes its parent's), without recursion: a chain of a thousand subentities costs a
    /// thousand hashes, not a million.
    /// - Complexity: O(1) after the first call; that one is O(p log p) for the p properties of
    ///   every entity and its superentities.
    public func versionHash(ofEntity index: EntityIndex) -> Data {
        precondition(entities.indices.contains(index.rawValue), "\(index) out of range")
        return Data(versionHashCache.hashes { computeEntityVersionHashes() }[index])
    }

    /// Every entity's hash, parents before their subentities.
    private func computeEntityVersionHashes() -> [[UInt8]] {
        var hashes = [[UInt8]?](repeating: nil, count: entities.count)
        // Each entity's own stored properties and their hashes, computed once.
        let declared = entities.map { owner -> [(name: String, hash: Data)] in
            owner.attributes.filter { !$0.isTransient }.map { ($0.name, $0.versionHash) }
                + owner.relationships.filter { !$0.isTransient }.map { ($0.name, $0.versionHash(declaredOn: owner.name)) }
        }
        for index in entityIndices.sorted(by: { infos[$0].superentities.count < infos[$1].superentities.count }) {
            let entity = entities[index]
            var bytes = Array(entity.name.utf8)
            bytes.append(entity.isAbstract ? 1 : 0)
            if let parent = infos[index].superentities.first {
                bytes.append(contentsOf: hashes[parent] ?? [])
            }
            var stored = declarationChain(of: index).flatMap { declared[$0] }
            stored.sort { VersionHashing.precedes($0.name, $1.name) }
            for property in stored { bytes.append(contentsOf: property.hash) }
            if let modifier = entity.versionHashModifier { bytes.append(contentsOf: Array(modifier.utf8)) }
            let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
            for constraint in constraints.sorted(by: VersionHashing.precedes) {
                bytes.append(contentsOf: Array(constraint.utf8))
            }
            hashes[index] = Array(VersionHashing.sha256(bytes))
        }
        return hashes.map { $0 ?? [] }
    }

    /// The version hash of the entity called `name`, or `nil` when there is no such entity.
    public func versionHash(ofEntityNamed name: String) -> Data? {
        entityIndex(named: name).map { versionHash(ofEntity: $0) }
    }

    /// Every entity's version hash (abstract ones included) by entity name, as stores record them.
    public var entityVersionHashes: [String: Data] {
        var hashes: [String: Data] = [:]
        for index in entityIndices { hashes[entities[index].name] = versionHash(ofEntity: index) }
        return hashes
    }

    /// The model's version hash: SHA-256 of the entity hashes in entity-name order.
    public var versionHash: Data {
        let hashes = entityVersionHashes
        var bytes: [UInt8] = []
        for name in hashes.keys.sorted(by: VersionHashing.precedes) {
            bytes.append(contentsOf: hashes[name] ?? Data())
        }
        return VersionHashing.sha256(bytes)
    }

    /// Base64 of ``versionHash``, which Xcode shows as the model's version checksum.
    public var versionChecksum: String { versionHash.base64EncodedString() }

    /// Whether a store written with `hashes` (entity name to version hash) can be opened with
    /// this schema unchanged: the same entity names, each with an equal hash.
    public func isStorageCompatible(withEntityHashes hashes: [String: Data]) -> Bool {
        hashes == entityVersionHashes
    }

    /// Whether documents of this schema and of `other` have the same stored shape.
    public func isStorageCompatible(with other: Schema) -> Bool {
        isStorageCompatible(withEntityHashes: other.entityVersionHashes)
    }

    /// The entity and its superentities, root-most first: where its properties are declared.
    private func declarationChain(of index: EntityIndex) -> [EntityIndex] {
        infos[index].superentities.reversed() + [index]
    }
}

/// The byte-level building blocks of version hashes.
enum VersionHashing {
    static func sha256(_ bytes: [UInt8]) -> Data {
        Data(SHA256.hash(data: bytes))
    }

    /// The hash shared by attributes and relationships, which both extend it.
    static func propertyHash(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> [UInt8] {
        var bytes = Array(name.utf8)
        var flags: UInt16 = 0
        if isOptional { flags |= 1 }
        if isTransient { flags |= 2 }
        append(flags, to: &bytes)
        if let modifier { bytes.append(contentsOf: Array(modifier.utf8)) }
        return Array(sha256(bytes))
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Name order for hashing: by UTF-8 bytes, so the order never depends on locale or normalization.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

/// A schema's entity version hashes, computed once and shared by its copies. Schemas are
/// values used from any thread, so the first computation is guarded by a lock. The hashes are
/// kept as byte arrays, not `Data`: a schema may live as long as the process, and `Data` packs
/// its storage pointer with tag bits that LeakSanitizer cannot follow (it reported them leaked).
// @unchecked Sendable: `entityHashes` and `computations` are only read and written while
// `lock` is held.
final class VersionHashCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entityHashes: [[UInt8]]?
    /// How many times the hashes were computed (once), for tests.
    private(set) var computations = 0

    /// The hashes, computed by `compute` on the first call.
    func hashes(_ compute: () -> [[UInt8]]) -> [[UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        if let entityHashes { return entityHashes }
        let computed = compute()
        entityHashes = computed
        computations += 1
        return computed
    }
}
