import Crypto
import Foundation
import OutlineTestSupport
import Testing

@testable import OutlineEngine

/// Version hashes of deep entity inheritance (issue 21: a 300-deep chain took over 20 s in
/// `schema show`, because each entity's hash recomputed its parent's, and so on up the chain).
@Suite struct DeepInheritanceHashTests {
    /// `E0 <- E1 <- ... <- E(depth-1)`, each with one attribute of its own.
    static func chain(_ depth: Int) throws -> Schema {
        try Schema(
            name: "Chain",
            entities: (0 ..< depth).map { i in
                Entity(name: "E\(i)", parent: i == 0 ? nil : "E\(i - 1)", attributes: [Attribute(name: "a\(i)", type: .string)])
            })
    }

    @Test func everyEntityHashOfADeepChainIsComputedOnceAndShared() throws {
        let schema = try Self.chain(300)
        let copy = schema
        _ = schema.entityVersionHashes
        _ = copy.versionHash(ofEntity: 299)
        _ = schema.versionHash
        for index in schema.entityIndices { _ = copy.versionHash(ofEntity: index) }
        #expect(schema.versionHashCache.computations == 1)
    }

    /// The hashes are Core Data's recipe: the parent's hash, then every stored property of the
    /// chain sorted by name, computed here the slow way, entity by entity.
    @Test func deepChainHashesFollowTheRecipe() throws {
        let schema = try Self.chain(40)
        var parent: Data?
        for index in schema.entities.indices {
            var bytes = Array("E\(index)".utf8) + [0]
            if let parent { bytes += parent }
            let properties = (0 ... index).map { "a\($0)" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for name in properties {
                let attribute = try #require(schema.infos[index].attributes.first { $0.name == name })
                bytes += attribute.versionHash
            }
            let expected = Data(SHA256.hash(data: bytes))
            #expect(schema.versionHash(ofEntity: EntityIndex(index)) == expected, "E\(index)")
            parent = expected
        }
    }
}
