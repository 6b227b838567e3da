/// The OPML rules on top of XML: which element may stand where, what becomes an event and
/// what a warning. Pure Swift; ``OPMLSAXSession`` feeds it libxml2's callbacks.
///
/// The element stack is an array, so nesting depth costs memory (a few bytes a level), never
/// call stack.
final class OPMLStructure {
    /// What an open element is.
    enum Kind: Equatable {
        case opml, head, headField, body, skipped
        /// An `<outline>` at this depth (1 = child of `<body>`).
        case outline(Int)
    }

    let file: String
    let options: OPMLReader.Options
    private let emit: (OPMLEvent) throws -> Void
    private(set) var warnings: [InterchangeWarning] = []
    private var stack: [Kind] = []
    private var field: OPMLHeadField?
    private var sawBody = false
    private var sawHead = false
    /// Repeated warnings are reported once, with a count: message key -> (index, repeats).
    private var repeats: [String: (index: Int, count: Int)] = [:]
    /// The number of `<outline>` elements reported so far.
    private(set) var outlineCount = 0

    init(file: String, options: OPMLReader.Options, emit: @escaping (OPMLEvent) throws -> Void) {
        self.file = file
        self.options = options
        self.emit = emit
    }

    /// The number of open elements.
    var depth: Int { stack.count }

    // MARK: Callbacks

    /// An element starts. `attributes` is only evaluated for elements that are reported.
    func start(localName: String, name: String, line: Int, attributes: () -> [OPMLAttribute]) throws {
        guard stack.count < options.maxDepth + 2 else { throw OPMLReader.tooDeep(file: file, line: line, limit: options.maxDepth) }
        guard let parent = stack.last else { return try startRoot(localName: localName, name: name, line: line, attributes: attributes()) }
        switch parent {
        case .skipped:
            stack.append(.skipped)
        case .opml:
            switch localName {
            case "head":
                if sawHead { try warn(line, "a second <head>; its fields are read too", key: "head2") }
                sawHead = true
                stack.append(.head)
            case "body":
                if sawBody { try warn(line, "a second <body>; its outlines are read after the first one's", key: "body2") }
                sawBody = true
                stack.append(.body)
            case "outline":
                try warn(line, "an <outline> outside <body>; read as part of the body", key: "outside")
                try startOutline(depth: 1, line: line, attributes: attributes())
            default:
                try skip(name, in: "opml", line: line)
            }
        case .head:
            field = OPMLHeadField(name, "", attributes: attributes(), line: line)
            stack.append(.headField)
        case .headField:
            try warn(
                line, "an element <\(name)> inside the head field <\(field?.name ?? "")> is not read; skipped with its contents",
                key: "inField")
            stack.append(.skipped)
        case .body:
            guard localName == "outline" else { return try skip(name, in: "body", line: line) }
            try startOutline(depth: 1, line: line, attributes: attributes())
        case .outline(let level):
            guard localName == "outline" else { return try skip(name, in: "outline", line: line) }
            try startOutline(depth: level + 1, line: line, attributes: attributes())
        }
    }

    /// The innermost open element ends.
    func end(line: Int) throws {
        guard let kind = stack.popLast() else { return }
        if kind == .headField, var field {
            field.line = line
            self.field = nil
            try emit(.headField(field))
        }
    }

    /// Character data (text or CDATA) inside the innermost open element.
    func characters(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws {
        guard let kind = stack.last else { return }
        switch kind {
        case .headField:
            field?.value += String(decoding: bytes, as: UTF8.self)
        case .skipped:
            return
        case .opml, .head, .body, .outline:
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return }
            let element = kind == .opml ? "opml" : kind == .head ? "head" : kind == .body ? "body" : "outline"
            try warn(line, "text inside <\(element)> is not part of OPML; ignored", key: "text-\(element)")
        }
    }

    /// A problem libxml2 reports without stopping (an undeclared namespace prefix, ...).
    func libxml2Warning(_ message: String, line: Int) throws {
        try warn(line, message, key: "xml-\(message)")
    }

    /// The text cannot be decoded from `line` on (lenient reading only): what was read before
    /// is kept, with a warning that says where the outline stops.
    func stopAtEncodingError(line: Int, reason: String) throws {
        try warn(
            line,
            "the file cannot be decoded from here on (\(reason)); the outline is read up to this line and "
                + "the rest of the file is left out",
            hint: "Declare the file's encoding in its first line, such as <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>, "
                + "or save the file as UTF-8, then read it again to get the rest.",
            key: "encoding")
    }

    /// The document ended without errors.
    func finish() throws {
        if !sawBody { try warn(nil, "the file has no <body>; the outline is empty", key: "nobody") }
        for (index, count) in repeats.values where count > 0 {
            warnings[index].message += " (and \(count) more \(count == 1 ? "place" : "places") like it)"
        }
    }

    // MARK: Elements

    private func startRoot(localName: String, name: String, line: Int, attributes: [OPMLAttribute]) throws {
        guard localName == "opml" else { throw OPMLReader.notOPML(file: file, line: line, root: name) }
        stack.append(.opml)
        let version = attributes[named: "version"]
        switch version {
        case nil:
            try warn(line, "the <opml> element has no version attribute; read as OPML 2.0", key: "version")
        case "1.0"?, "1.1"?, "2.0"?:
            break
        case let other?:
            try warn(line, "unknown OPML version \"\(other)\"; read as OPML 2.0", key: "version")
        }
        try emit(.opml(version: version, attributes: attributes.filter { $0.name != "version" }))
    }

    private func startOutline(depth: Int, line: Int, attributes: [OPMLAttribute]) throws {
        stack.append(.outline(depth))
        outlineCount += 1
        try emit(.outline(OPMLOutline(depth: depth, attributes: attributes, line: line)))
    }

    private func skip(_ name: String, in parent: String, line: Int) throws {
        try warn(
            line, "an element <\(name)> inside <\(parent)> is not part of OPML; skipped with its contents",
            key: "skip-\(name)-\(parent)")
        stack.append(.skipped)
    }

    // MARK: Warnings

    /// Records a warning, or throws it in strict mode. Warnings with the same `key` are
    /// reported once, with a count of the others.
    private func warn(_ line: Int?, _ message: String, hint: String? = nil, key: String) throws {
        let warning = InterchangeWarning(file: file, line: line, message, hint: hint)
        if options.strict { throw warning.storageError }
        if let seen = repeats[key] {
            repeats[key] = (seen.index, seen.count + 1)
            return
        }
        repeats[key] = (warnings.count, 0)
        warnings.append(warning)
    }
}
