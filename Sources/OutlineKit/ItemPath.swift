import Foundation
import OutlineEngine

/// How a user addresses an item: a 1-based index path from the root (`2.1.3`), the root
/// itself (`/`), or a stable object id (`#102` or `#z102`).
public enum ItemReference: Sendable, Hashable, CustomStringConvertible {
    /// Indices from the root, each 1-based; empty means the root.
    case path([Int])
    /// A stable object id, as `#102` or `#z102` write it.
    case id(ObjectID)

    /// Parses `/`, `2.1.3` or `#102`.
    ///
    /// - Throws: ``OutlineError`` `invalidItemReference` explaining the accepted forms.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "/" {
            self = .path([])
            return
        }
        if trimmed.hasPrefix("#") {
            guard let id = ObjectID(string: trimmed.dropFirst()) else {
                throw OutlineError(.invalidItemReference, at: text, "\"\(text)\" is not an item id",
                                   hint: "Write an id as # followed by the item's id number, such as #102.")
            }
            self = .id(id)
            return
        }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        var indices: [Int] = []
        for part in parts {
            guard let n = Int(part), n >= 1 else {
                throw OutlineError(.invalidItemReference, at: text, "\"\(text)\" is not an item path",
                                   hint: "Write a path as 1-based positions separated by dots (2.1.3), / for the root, or #ID.")
            }
            indices.append(n)
        }
        self = .path(indices)
    }

    /// The reference as a user writes it: `/` for the root, `2.1` for a path, `#102` for an id.
    public var description: String {
        switch self {
        case .path(let p): p.isEmpty ? "/" : p.map(String.init).joined(separator: ".")
        case .id(let id): "#\(id.rawValue)"
        }
    }
}
