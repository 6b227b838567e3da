import Foundation

/// Writes OPML strictly: UTF-8 with an XML declaration, `version="2.0"`, the head fields and
/// `<opml>` attributes it is given, and outlines as they are started and ended.
///
/// Escaping: `&`, `<`, `>` and `"` as entities; in attribute values newline, carriage return
/// and tab as `&#10;`, `&#13;` and `&#9;`, so that readers get them back (a literal one would
/// be read as a space); in element text carriage return as `&#13;`. Characters XML 1.0 cannot
/// hold at all (other control characters, U+FFFE, U+FFFF) are written as U+FFFD and counted in
/// ``replacedCharacters``.
///
/// Elements are indented with one tab per level, up to ``maxIndentation`` tabs, so that very
/// deep outlines stay linear in size. Leaf outlines are written as empty elements (`<outline
/// text="a"/>`).
///
/// - Complexity: O(bytes written); nothing is held but the output and the open depth.
public struct OPMLWriter {
    /// The most tabs a line is indented by.
    public static let maxIndentation = 32

    /// The most bytes one `<outline ...>` start tag may take, its attributes escaped: libxml2
    /// without `XML_PARSE_HUGE` (which ``OPMLReader`` keeps off) looks ahead at most 10,000,000
    /// bytes, and a start tag must fit in that (a little is kept for the indentation before it).
    /// A longer one would be written and then not read back.
    public static let maximumStartTagBytes = 9_999_000

    private var bytes: [UInt8] = []
    /// Open outlines.
    private var depth = 0
    /// Whether the last outline's start tag still lacks its `>` (it may become `/>`).
    private var pending = false
    /// How many characters were replaced by U+FFFD because XML cannot hold them.
    public private(set) var replacedCharacters = 0

    /// Starts a document with `head`: the declaration, `<opml version="2.0">` with the head's
    /// attributes, `<head>` with its fields in order, and `<body>`.
    ///
    /// - Parameter reserve: the expected size in bytes, to allocate once.
    /// - Parameter head: the version, `<opml>` attributes and head fields to write.
    public init(head: OPMLHead, reserve: Int = 1 << 16) {
        bytes.reserveCapacity(reserve)
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"")
        appendAttributes(head.attributes.filter { $0.name != "version" })
        append(">\n")
        if head.fields.isEmpty {
            append("\t<head/>\n")
        } else {
            append("\t<head>\n")
            for field in head.fields {
                append("\t\t<")
                append(field.name)
                appendAttributes(field.attributes)
                if field.value.isEmpty {
                    append("/>\n")
                } else {
                    append(">")
                    appendEscaped(field.value, inAttribute: false)
                    append("</")
                    append(field.name)
                    append(">\n")
                }
            }
            append("\t</head>\n")
        }
        append("\t<body>\n")
    }

    /// Opens an `<outline>` with `attributes` in the order given, under the open one (or
    /// `<body>`). Names must be XML names and unique; callers map their data to that.
    ///
    /// - Returns: the bytes the start tag takes, which readers need to be at most
    ///   ``maximumStartTagBytes``.
    @discardableResult
    public mutating func startOutline(_ attributes: [OPMLAttribute]) -> Int {
        closePending()
        indent(depth + 2)
        let start = bytes.count
        append("<outline")
        appendAttributes(attributes)
        pending = true
        depth += 1
        return bytes.count - start + 1  // with its closing `>`
    }

    /// Closes the innermost open outline.
    public mutating func endOutline() {
        precondition(depth > 0, "OPMLWriter.endOutline() without an open outline")
        depth -= 1
        if pending {
            append("/>\n")
            pending = false
        } else {
            indent(depth + 2)
            append("</outline>\n")
        }
    }

    /// The number of open outlines.
    public var openOutlines: Int { depth }

    /// Closes every open outline, `<body>` and `<opml>`, and returns the document.
    public consuming func finish() -> Data {
        while depth > 0 { endOutline() }
        append("\t</body>\n</opml>\n")
        return Data(bytes)
    }

    /// Writes `file` (its head and its outlines, nested by depth).
    ///
    /// - Precondition: each outline's depth is at least 1 and at most one more than the
    ///   previous one's (the first one's is 1), as ``OPMLReader`` reports them.
    public static func write(_ file: OPMLFile) -> Data {
        var writer = OPMLWriter(head: file.head)
        for outline in file.outlines {
            precondition(
                outline.depth >= 1 && outline.depth <= writer.depth + 1,
                "OPMLWriter.write: outline depth \(outline.depth) after depth \(writer.depth)")
            while writer.depth >= outline.depth { writer.endOutline() }
            writer.startOutline(outline.attributes)
        }
        return writer.finish()
    }

    // MARK: Bytes

    private mutating func closePending() {
        if pending {
            append(">\n")
            pending = false
        }
    }

    private mutating func indent(_ level: Int) {
        bytes.append(contentsOf: repeatElement(0x09, count: min(level, Self.maxIndentation)))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func appendAttributes(_ attributes: [OPMLAttribute]) {
        for attribute in attributes {
            bytes.append(0x20)
            append(attribute.name)
            bytes.append(contentsOf: [0x3D, 0x22])  // ="
            appendEscaped(attribute.value, inAttribute: true)
            bytes.append(0x22)
        }
    }

    /// Appends `text` escaped for an attribute value or for element content.
    private mutating func appendEscaped(_ text: String, inAttribute: Bool) {
        var utf8 = text.utf8.makeIterator()
        var previous: (UInt8, UInt8) = (0, 0)
        while let byte = utf8.next() {
            switch byte {
            case 0x26: append("&amp;")
            case 0x3C: append("&lt;")
            case 0x3E: append("&gt;")
            case 0x22 where inAttribute: append("&quot;")
            case 0x0A where inAttribute: append("&#10;")
            case 0x09 where inAttribute: append("&#9;")
            case 0x0D: append("&#13;")
            case 0x09, 0x0A: bytes.append(byte)
            case 0x00 ..< 0x20:
                replace()
            case 0xBE where previous == (0xEF, 0xBF), 0xBF where previous == (0xEF, 0xBF):
                // U+FFFE and U+FFFF (EF BF BE, EF BF BF): the lead bytes are already out.
                bytes.removeLast(2)
                replace()
            default:
                bytes.append(byte)
            }
            previous = (previous.1, byte)
        }
    }

    private mutating func replace() {
        bytes.append(contentsOf: [0xEF, 0xBF, 0xBD])
        replacedCharacters += 1
    }
}
