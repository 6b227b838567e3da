/// Whether the two sides of every inverse pair mirror each other, as ``GraphLoader`` checks
/// them while loading; for graphs that were loaded leniently or edited without a context.
extension ObjectGraph {
    /// Links of one relationship that have no matching link in its inverse.
    public struct InverseMismatch: Sendable, Equatable {
        /// `Entity.relationship` whose links are unmatched.
        public var relationship: String
        /// `Entity.relationship` of the inverse, where the matching links are missing.
        public var inverse: String
        /// How many links are unmatched (a link stored twice counts twice).
        public var count: Int
        /// The first unmatched links, as (owner, target), ordered by owner entity and id.
        public var examples: [(owner: ObjectID, target: ObjectID)]

        /// Whether both name the same pair, the same count and the same examples.
        public static func == (a: Self, b: Self) -> Bool {
            a.relationship == b.relationship && a.inverse == b.inverse && a.count == b.count
                && a.examples.elementsEqual(b.examples) { $0.owner == $1.owner && $0.target == $1.target }
        }
    }

    /// Every set of links whose inverse does not point back, per inverse pair of the schema
    /// (each pair checked once, from the side declared first).
    ///
    /// - Parameter examples: how many unmatched links each mismatch lists.
    /// - Complexity: O(L log L) for L links; no hashing, no recursion.
    public func inverseMismatches(examples: Int = 5) -> [InverseMismatch] {
        var mismatches: [InverseMismatch] = []
        for info in schema.infos {
            for r in info.relationshipIndices where info.declaringEntity(of: r) == info.index && !info[r].isTransient {
                guard let inverse = info.inverse(of: r) else { continue }
                let destination = info.destination(of: r)
                let backDeclaring = schema[destination].declaringEntity(of: inverse)
                if (backDeclaring, inverse) < (info.index, r) { continue }
                mismatches += mirror(info.index, r, destination, inverse, examples: examples)
            }
        }
        return mismatches
    }

    private struct Link: Comparable {
        var owner: ManagedObject
        var target: ManagedObject

        static func < (a: Link, b: Link) -> Bool { (a.owner, a.target) < (b.owner, b.target) }
    }

    /// Compares the links of `entity.r` with the flipped links of `destination.inverse`: both
    /// lists sorted, then merged once.
    private func mirror(
        _ entity: EntityIndex, _ r: RelationshipIndex, _ destination: EntityIndex,
        _ inverse: RelationshipIndex, examples: Int
    ) -> [InverseMismatch] {
        let forward = links(entity, r, flipped: false)
        let backward = links(destination, inverse, flipped: true)
        guard forward != backward else { return [] }
        // The links each side has more of than the other.
        var onlyForward: [Link] = []
        var onlyBackward: [Link] = []
        var i = 0
        var j = 0
        while i < forward.count || j < backward.count {
            if j == backward.count || (i < forward.count && forward[i] < backward[j]) {
                onlyForward.append(forward[i])
                i += 1
            } else if i == forward.count || backward[j] < forward[i] {
                onlyBackward.append(backward[j])
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        let forwardName = "\(schema.entities[entity].name).\(schema[entity][r].name)"
        let backwardName = "\(schema.entities[destination].name).\(schema[destination][inverse].name)"
        func mismatch(_ missing: [Link], _ from: String, _ to: String) -> InverseMismatch {
            let sorted = missing.sorted { ($0.owner.entity, objectID(of: $0.owner)) < ($1.owner.entity, objectID(of: $1.owner)) }
            return InverseMismatch(
                relationship: from, inverse: to, count: missing.count,
                examples: sorted.prefix(examples).map { (objectID(of: $0.owner), objectID(of: $0.target)) })
        }
        var result: [InverseMismatch] = []
        if !onlyForward.isEmpty { result.append(mismatch(onlyForward, forwardName, backwardName)) }
        if !onlyBackward.isEmpty { result.append(mismatch(onlyBackward, backwardName, forwardName)) }
        return result
    }

    /// Every link of `entity.relationship` (subentities included), sorted; `flipped` swaps owner and target.
    private func links(_ entity: EntityIndex, _ relationship: RelationshipIndex, flipped: Bool) -> [Link] {
        var list: [Link] = []
        let toMany = schema[entity][relationship].isToMany
        for object in objects(ofEntity: entity) {
            if toMany {
                for target in relatedObjects(of: object, relationship) {
                    list.append(flipped ? Link(owner: target, target: object) : Link(owner: object, target: target))
                }
            } else if let target = relatedObject(of: object, relationship) {
                list.append(flipped ? Link(owner: target, target: object) : Link(owner: object, target: target))
            }
        }
        list.sort()
        return list
    }
}
