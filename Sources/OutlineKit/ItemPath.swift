import Foundation
import OutlineEngine

/// How a user addresses an item: a 1-based index path from the root (`2.1.3`), the root
/// itself (`/`), or a stable object id (`#102` or `#z102`).
public enum ItemReference: Sendable, Hashable, CustomStringConvertible {
    /// Indices from the root, each 1-based; empty means the root.
    case path([Int])
    /// A stable object id, as `#102` or `#z102` write it.
    case id(ObjectID)

    /// Parses `/`, `2.1.3` or `#102`, strictly: nothing around them (no spaces), positions
    /// written as plain decimal numbers from 1 (no sign, no leading zero).
    ///
    /// A path that is almost one (` 1`, `+1`, `01`) is refused rather than read as the item it
    /// resembles: a command that removes or rewrites an item must act on exactly the one named.
    /// - Throws: ``OutlineError`` `invalidItemReference` explaining the accepted forms.
    public init(parsing text: String) throws {
        if let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            let side = first.properties.isWhitespace ? "begins" : "ends"
            throw OutlineError(
                .invalidItemReference, "\"\(text)\" \(side) with a space",
                hint: "Write the path without spaces, such as 2.1.3, / for the root, or #ID.")
        }
        if text == "/" {
            self = .path([])
            return
        }
        if text.hasPrefix("#") {
            guard let id = ObjectID(string: text.dropFirst()) else {
                throw OutlineError(
                    .invalidItemReference, at: text, "\"\(text)\" is not an item id",
                    hint: "Write an id as # followed by the item's id number, such as #102.")
            }
            self = .id(id)
            return
        }
        var indices: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard let n = Self.position(part) else {
                throw OutlineError(
                    .invalidItemReference, at: text, "\"\(text)\" is not an item path",
                    hint: "Write a path as 1-based positions separated by dots (2.1.3), / for the root, or #ID.")
            }
            indices.append(n)
        }
        self = .path(indices)
    }

    /// `part` as a 1-based position: ASCII digits only, not starting with 0, within Int.
    private static func position(_ part: Substring) -> Int? {
        guard let first = part.utf8.first, first != UInt8(ascii: "0"),
            part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(part)
    }

    /// The reference as a user writes it: `/` for the root, `2.1` for a path, `#102` for an id.
    public var description: String {
        switch self {
        case .path(let p): p.isEmpty ? "/" : p.map(String.init).joined(separator: ".")
        case .id(let id): "#\(id.rawValue)"
        }
    }
}
