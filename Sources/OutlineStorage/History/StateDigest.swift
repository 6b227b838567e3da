import Crypto
import OutlineEngine

/// SHA-256 of a document's objects as the binary format's objects section encodes them: the
/// live objects in id order with every stored value and link, the same for a graph however it
/// was read (binary or XML) and unchanged by compression levels, UUIDs or metadata.
///
/// Stored with an undo history, it tells a reader whether the objects are still the ones the
/// history was recorded on. A binary document hashes the section it reads or writes anyway
/// (about 25 ms for a million items); an XML store encodes its graph to hash it.
enum StateDigest {
    static let size = 32

    /// The digest of an objects section's payload.
    static func of(objectsSection bytes: UnsafeRawBufferPointer) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// A digest taken a piece at a time, in order (as a body is written).
    struct Hasher {
        private var sha = SHA256()

        mutating func update(_ bytes: UnsafeRawBufferPointer) { sha.update(bufferPointer: bytes) }

        func finalize() -> [UInt8] { Array(sha.finalize()) }
    }

    /// The digest of `graph`'s live objects.
    ///
    /// - Complexity: O(n) in the objects and their values.
    static func of(_ graph: GraphSnapshot) -> [UInt8] {
        BodyEncoder(graph: graph).objectsPayload().withUnsafeBytes { of(objectsSection: $0) }
    }
}
