import Foundation

/// Reads OPML 1.0, 1.1, 2.0 and version-less files with libxml2's SAX2 push parser, reporting
/// the `<opml>` element, the `<head>` fields and every `<outline>` as events in document order.
///
/// Reading is streaming: memory holds the current element, not the document, and nesting is
/// tracked in an array, so 100,000 levels cost a few megabytes and no call stack.
///
/// Reading is lenient: oddities (no version, unknown elements, text where none belongs) come
/// back as ``InterchangeWarning``s; with ``Options/strict`` the first one is thrown instead, as
/// ``StorageError`` code `nonconforming`. Files that are not OPML are rejected with a message
/// naming the file, the line, what is wrong and what to do.
///
/// What libxml2 does for us, and what that means:
/// - The encoding comes from the XML declaration (`encoding="ISO-8859-1"` and the others
///   libxml2 knows) or from a byte-order mark; without either the file must be UTF-8.
/// - A literal newline, tab or carriage return inside an attribute value arrives as a space:
///   XML requires every parser to normalise them. Files keep them only as `&#10;`, `&#9;` and
///   `&#13;`, which ``OPMLWriter`` writes.
/// - Safety: no network (`XML_PARSE_NONET`), no external DTD or entity is loaded, entities
///   declared in a DOCTYPE are never expanded (a file that uses one is rejected), and libxml2's
///   own limits on names and text lengths stay on (`XML_PARSE_HUGE` is not used). libxml2's
///   element depth limit (256) is raised, process-wide and never lowered, to what
///   ``Options/maxDepth`` needs, and this reader enforces `maxDepth` itself.
public enum OPMLReader {
    /// How to read.
    public struct Options: Sendable, Hashable {
        /// Throw the first warning as an error instead of returning it.
        public var strict: Bool
        /// The deepest `<outline>` nesting accepted (1 = children of `<body>`). Each level costs
        /// about 50 bytes while reading.
        public var maxDepth: Int

        /// The largest ``maxDepth`` a reader may ask for.
        public static let depthCeiling = 1_000_000
        /// The default ``maxDepth``: twice the deepest outline we promise to read (100,000).
        public static let defaultMaxDepth = 200_000

        /// Options for reading.
        ///
        /// - Parameters:
        ///   - strict: refuse nonconforming files with an error instead of warning about them.
        ///   - maxDepth: the deepest nesting accepted, in 1...``depthCeiling``.
        /// - Precondition: `maxDepth` is in 1...``depthCeiling``.
        public init(strict: Bool = false, maxDepth: Int = Options.defaultMaxDepth) {
            precondition(
                maxDepth >= 1 && maxDepth <= Options.depthCeiling,
                "OPMLReader.Options.maxDepth must be in 1...\(Options.depthCeiling)")
            self.strict = strict
            self.maxDepth = maxDepth
        }
    }

    /// Streams the OPML document in `data` to `handler`.
    ///
    /// - Parameter file: how messages name the file.
    /// - Parameter data: the file's bytes.
    /// - Parameter options: strictness and the depth limit.
    /// - Parameter handler: called with each event (the head, then each outline) in document order.
    /// - Returns: the warnings, in document order (empty in strict mode).
    /// - Throws: ``StorageError``: `unknownFormat` (empty file, HTML page, root other than
    ///   `<opml>`), `malformedXML` (not well-formed, or an entity that is not expanded),
    ///   `limitExceeded` (nesting deeper than `maxDepth`), `nonconforming` (a warning, in
    ///   strict mode); or whatever `handler` throws.
    @discardableResult
    public static func read(
        _ data: Data, file: String, options: Options = Options(),
        _ handler: (OPMLEvent) throws -> Void
    ) throws -> [InterchangeWarning] {
        try withoutActuallyEscaping(handler) { handler in
            let session = OPMLSAXSession(file: file, options: options, emit: handler)
            try data.withUnsafeBytes { raw in
                try session.parse { consume in
                    var offset = 0
                    repeat {
                        let end = min(raw.count, offset + chunkSize)
                        guard try consume(UnsafeRawBufferPointer(rebasing: raw[offset ..< end])) else { return }
                        offset = end
                    } while offset < raw.count
                }
            }
            return session.structure.warnings
        }
    }

    /// Streams the OPML file at `url` to `handler`, reading it in chunks.
    ///
    /// - Parameter file: how messages name the file (default: the path).
    /// - Parameter url: the file to read.
    /// - Parameter options: strictness and the depth limit.
    /// - Parameter handler: called with each event (the head, then each outline) in document order.
    /// - Throws: ``StorageError`` `unreadable` when the file cannot be read; otherwise as
    ///   ``read(_:file:options:_:)``.
    @discardableResult
    public static func read(
        contentsOf url: URL, file: String? = nil, options: Options = Options(),
        _ handler: (OPMLEvent) throws -> Void
    ) throws -> [InterchangeWarning] {
        let name = file ?? url.path
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw StorageError(
                .unreadable, file: name, "the file cannot be opened (\(error.localizedDescription))",
                hint: "Check the path and the file's permissions.")
        }
        defer { try? handle.close() }
        return try withoutActuallyEscaping(handler) { handler in
            let session = OPMLSAXSession(file: name, options: options, emit: handler)
            try session.parse { consume in
                while true {
                    let chunk: Data?
                    do {
                        chunk = try handle.read(upToCount: chunkSize)
                    } catch {
                        throw StorageError(
                            .unreadable, file: name, "the file cannot be read (\(error.localizedDescription))",
                            hint: "Check that the disk and the file are readable.")
                    }
                    guard let chunk, !chunk.isEmpty else { return }
                    guard try chunk.withUnsafeBytes({ try consume($0) }) else { return }
                }
            }
            return session.structure.warnings
        }
    }

    /// Reads the whole document into memory: head, outlines in document order, warnings.
    ///
    /// - Throws: as ``read(_:file:options:_:)``.
    public static func read(_ data: Data, file: String, options: Options = Options()) throws -> OPMLFile {
        var result = OPMLFile()
        result.warnings = try read(data, file: file, options: options) { result.add($0) }
        return result
    }

    /// How much is handed to libxml2 at a time.
    static let chunkSize = 1 << 20
}

/// A whole OPML file in memory: what ``OPMLReader/read(_:file:options:)`` returns and what
/// ``OPMLWriter/write(_:)`` takes.
public struct OPMLFile: Sendable, Hashable {
    /// The version, `<opml>` attributes and `<head>` fields.
    public var head: OPMLHead
    /// Every outline in document order; the tree is given by their depths.
    public var outlines: [OPMLOutline]
    /// What the reader noticed but read anyway (empty for files written by ``OPMLWriter``).
    public var warnings: [InterchangeWarning]

    /// A file with the given head, outlines and warnings.
    public init(head: OPMLHead = OPMLHead(), outlines: [OPMLOutline] = [], warnings: [InterchangeWarning] = []) {
        self.head = head
        self.outlines = outlines
        self.warnings = warnings
    }

    /// Adds what an event reports.
    public mutating func add(_ event: OPMLEvent) {
        switch event {
        case .opml(let version, let attributes):
            head.version = version
            head.attributes = attributes
        case .headField(let field):
            head.fields.append(field)
        case .outline(let outline):
            outlines.append(outline)
        }
    }
}
