/// One attribute of an OPML element as the file has it: the qualified name (`text`, `xmlUrl`,
/// `dc:creator`, `xmlns:dc`) and the value after XML decoding (entities and character
/// references replaced, literal newlines, tabs and carriage returns turned into spaces as XML
/// requires).
public struct OPMLAttribute: Sendable, Hashable, CustomStringConvertible {
    /// The qualified name, such as `text` or `dc:creator`.
    public var name: String
    /// The decoded value.
    public var value: String

    /// An attribute called `name` with `value` (already decoded).
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name="value"`, for messages and debugging (not escaped for XML).
    public var description: String { "\(name)=\"\(value)\"" }
}

extension [OPMLAttribute] {
    /// The value of the first attribute called `name`.
    public subscript(named name: String) -> String? {
        first { $0.name == name }?.value
    }
}

/// One `<outline>` element, without its children: the tree is given by ``depth`` and document
/// order, so a reader never holds more than one element and never recurses.
public struct OPMLOutline: Sendable, Hashable {
    /// 1 for a child of `<body>`, 2 for a child of that outline, and so on.
    public var depth: Int
    /// Every attribute, in file order. Namespace declarations (`xmlns:x`) come first, as
    /// libxml2 reports them apart from the other attributes.
    public var attributes: [OPMLAttribute]
    /// The 1-based line on which the start tag ends (0 for outlines not read from a file).
    public var line: Int

    /// An outline element at `depth` with `attributes`, ending on `line` (0 when not from a file).
    public init(depth: Int, attributes: [OPMLAttribute], line: Int = 0) {
        self.depth = depth
        self.attributes = attributes
        self.line = line
    }

    /// The value of attribute `name`.
    public subscript(name: String) -> String? { attributes[named: name] }
}

/// One child element of `<head>`: `title`, `dateCreated`, `expansionState`, `windowTop`, or any
/// other element a program wrote there.
public struct OPMLHeadField: Sendable, Hashable {
    /// The element's qualified name.
    public var name: String
    /// The element's text, exactly as in the file (not trimmed).
    public var value: String
    /// The element's attributes, in file order (usually none).
    public var attributes: [OPMLAttribute]
    /// The 1-based line on which the element ends (0 for fields not read from a file).
    public var line: Int

    /// A head field called `name` with text `value`.
    public init(_ name: String, _ value: String, attributes: [OPMLAttribute] = [], line: Int = 0) {
        self.name = name
        self.value = value
        self.attributes = attributes
        self.line = line
    }
}

/// Everything an OPML file says besides its outlines: the version, the other attributes of
/// `<opml>` (namespace declarations, usually) and the `<head>` fields in file order.
///
/// Readers fill it; writers write it back (always as version 2.0). Markdown and plain-text
/// readers use it for a document title only.
public struct OPMLHead: Sendable, Hashable {
    /// The `version` attribute as read (`1.0`, `1.1`, `2.0`), nil when the file had none.
    public var version: String?
    /// The attributes of `<opml>` other than `version`, in file order.
    public var attributes: [OPMLAttribute]
    /// The children of `<head>`, in file order.
    public var fields: [OPMLHeadField]

    /// A head with the given version, `<opml>` attributes and fields.
    public init(version: String? = nil, attributes: [OPMLAttribute] = [], fields: [OPMLHeadField] = []) {
        self.version = version
        self.attributes = attributes
        self.fields = fields
    }

    /// The text of the first field called `name`; setting replaces it in place, appends it
    /// when missing, or removes it (nil).
    public subscript(field name: String) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            if let index = fields.firstIndex(where: { $0.name == name }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append(OPMLHeadField(name, newValue))
            }
        }
    }

    /// The document's title (the `title` field).
    public var title: String? {
        get { self[field: "title"] }
        set { self[field: "title"] = newValue }
    }
}

/// What an ``OPMLReader`` reports, in document order.
public enum OPMLEvent: Sendable, Hashable {
    /// The `<opml>` element (always first): its `version` and its other attributes.
    case opml(version: String?, attributes: [OPMLAttribute])
    /// A complete child of `<head>`.
    case headField(OPMLHeadField)
    /// An `<outline>` start tag; its children follow as outlines one level deeper.
    case outline(OPMLOutline)
}
