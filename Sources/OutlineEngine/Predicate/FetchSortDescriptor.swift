/// How to order fetched objects: a key path, a direction, and optionally case-insensitive
/// string order. Bind a list of them with ``Swift/Array/bound(to:entity:)`` to sort objects.
///
/// The text form is the key path, with `-` in front for descending order (or a trailing
/// `ascending`/`descending`, `asc`/`desc`), and `[c]` for case-insensitive order:
/// `"order"`, `"-created"`, `"text ascending"`, `"text [c]"`. Several descriptors are
/// separated by commas: `"done, -created"`.
///
/// The name avoids Foundation's generic `SortDescriptor` type.
public struct FetchSortDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The key path of the value to sort by, such as `order`, `parent.text` or `children.@count`.
    public var keyPath: FetchPredicate.KeyPath
    /// Whether smaller values come first. `nil` values come first when ascending.
    public var ascending: Bool
    /// Whether strings compare ignoring case.
    public var caseInsensitive: Bool

    /// A descriptor for a key path given as components, unchecked (binding checks it).
    public init(keyPath: FetchPredicate.KeyPath, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }

    /// A descriptor for a dotted key path such as `"parent.order"`, unchecked (binding checks it).
    public init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.init(
            keyPath: FetchPredicate.KeyPath(keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)),
            ascending: ascending, caseInsensitive: caseInsensitive)
    }

    /// Parses one descriptor: `"order"`, `"-created"`, `"+order"`, `"text descending"`, `"text [c]"`.
    ///
    /// - Throws: ``EngineError`` (`invalidPredicate`) with the column of the offending text.
    public init(parsing text: String) throws {
        self = try PredicateErrors.inSortKeys { try Self.parse(text) }
    }

    /// Parses comma-separated descriptors such as `"done, -created"`; columns in errors count
    /// from the start of `text`.
    ///
    /// - Throws: ``EngineError`` (`invalidPredicate`) for an empty or malformed descriptor.
    public static func list(parsing text: String) throws -> [FetchSortDescriptor] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [Range<Int>] = []
        var start = 0
        for (i, c) in scalars.enumerated() where c == "," {
            pieces.append(start ..< i)
            start = i + 1
        }
        pieces.append(start ..< scalars.count)
        return try pieces.map { piece in
            // Blank out what comes before the descriptor so that columns stay those of the whole text.
            var view = String.UnicodeScalarView(repeating: " ", count: piece.lowerBound)
            view.append(contentsOf: scalars[piece])
            return try PredicateErrors.inSortKeys { try parse(String(view)) }
        }
    }

    private static func parse(_ text: String) throws -> FetchSortDescriptor {
        var scalars = Array(text.unicodeScalars)
        var ascending = true
        // Replace a leading sign by a space, keeping columns.
        if let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }), scalars[first] == "-" || scalars[first] == "+" {
            ascending = scalars[first] == "+"
            scalars[first] = " "
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        var parser = try PredicateParser(format: String(view), arguments: [])
        var isPlaceholder = false
        if case .placeholder = parser.current.kind { isPlaceholder = true }
        guard parser.startsKeyPath(parser.current), !parser.current.isKeyword("SELF"), !isPlaceholder else {
            throw PredicateErrors.expected(
                "a key path to sort by", after: nil, found: parser.current,
                hint: "Write a key path, with - in front for descending order, as in -created.", subject: "text")
        }
        let keyPath = try parser.parseKeyPath()
        var descriptor = FetchSortDescriptor(keyPath: keyPath, ascending: ascending)
        if case .word(let word) = parser.current.kind {
            switch word.lowercased() {
            case "ascending", "asc": parser.advance()
            case "descending", "desc":
                descriptor.ascending = false
                parser.advance()
            default: break
            }
        }
        if parser.current.isSymbol("[") {
            parser.advance()
            guard case .word(let letters) = parser.current.kind, letters.lowercased() == "c" else {
                throw PredicateErrors.expected(
                    "\"c\"", after: "[", found: parser.current,
                    hint: "Write [c] after the key path for case-insensitive order.", subject: "text")
            }
            parser.advance()
            guard parser.current.isSymbol("]") else {
                throw PredicateErrors.expected(
                    "\"]\"", after: "c", found: parser.current,
                    hint: "Write [c] after the key path for case-insensitive order.", subject: "text")
            }
            parser.advance()
            descriptor.caseInsensitive = true
        }
        guard parser.current.isEnd else {
            throw PredicateErrors.expected(
                "\"ascending\", \"descending\", \"[c]\" or the end", after: parser.previousText, found: parser.current,
                hint: "Separate sort keys with commas, as in done, -created.", subject: "text")
        }
        return descriptor
    }

    /// The canonical text form, which ``init(parsing:)`` reads back: `order`, `-created`, `text [c]`.
    public var description: String {
        (ascending ? "" : "-") + keyPath.description + (caseInsensitive ? " [c]" : "")
    }
}
