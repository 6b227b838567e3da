internal import CLibXML2
import Foundation

/// One run of libxml2's SAX2 push parser over an OPML document: the C glue between libxml2's
/// callbacks and ``OPMLStructure``.
///
/// No DOM is built and no document is kept: each callback turns libxml2's pointers into Swift
/// values at once. Errors thrown by the structure or the event handler stop the parser and are
/// rethrown by ``parse(_:)``; the first fatal libxml2 error becomes a ``StorageError``.
final class OPMLSAXSession {
    let structure: OPMLStructure
    private let file: String
    private var context: xmlParserCtxtPtr?
    private var failure: (any Error)?
    private var fatal: LibXML2Error?
    private var declaredEntities = false

    init(file: String, options: OPMLReader.Options, emit: @escaping (OPMLEvent) throws -> Void) {
        self.file = file
        structure = OPMLStructure(file: file, options: options, emit: emit)
    }

    /// Parses the bytes `source` hands to its consumer, chunk after chunk, in order; the
    /// consumer returns false once parsing has stopped and no more bytes are wanted.
    func parse(_ source: ((UnsafeRawBufferPointer) throws -> Bool) throws -> Void) throws {
        Self.prepareLibXML2(depth: structure.options.maxDepth + 4)
        var handler = Self.makeHandler()
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let parser = xmlCreatePushParserCtxt(&handler, me, nil, 0, nil) else {
            throw StorageError(
                .unreadable, file: file, "libxml2 could not make a parser (out of memory)",
                hint: "Free some memory and try again.")
        }
        defer {
            // libxml2 keeps entity declarations in a stand-in document even in SAX mode.
            if let document = parser.pointee.myDoc { xmlFreeDoc(document) }
            parser.pointee.myDoc = nil
            xmlFreeParserCtxt(parser)
        }
        context = parser
        defer { context = nil }
        _ = xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue))
        outline_xmlSilenceGenericErrors(1)
        defer { outline_xmlSilenceGenericErrors(0) }

        var sawBytes = false
        try source { chunk in
            if !sawBytes {
                try OPMLReader.rejectHTML(chunk, file: file)
                sawBytes = !chunk.isEmpty
            }
            guard !chunk.isEmpty else { return true }
            let code = xmlParseChunk(parser, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(chunk.count), 0)
            noteEncoderFailure(code)
            return failure == nil && fatal == nil
        }
        guard sawBytes else { throw OPMLReader.empty(file: file) }
        if failure == nil && fatal == nil { noteEncoderFailure(xmlParseChunk(parser, nil, 0, 1)) }
        if let failure { throw failure }
        if let fatal {
            // An encoding error part-way: what came before it is kept, with a warning.
            if fatal.kind == .encoding, !structure.options.strict, structure.outlineCount > 0 {
                try structure.stopAtEncodingError(line: max(1, fatal.line), reason: fatal.message)
                try structure.finish()
                return
            }
            throw OPMLReader.notWellFormed(
                file: file, fatal, declaredEntities: declaredEntities,
                maxDepth: structure.options.maxDepth)
        }
        guard parser.pointee.wellFormed != 0 else {
            throw OPMLReader.notWellFormed(
                file: file, LibXML2Error(kind: .other, message: "unknown error", line: line),
                declaredEntities: declaredEntities, maxDepth: structure.options.maxDepth)
        }
        try structure.finish()
    }

    /// Records a conversion failure that libxml2 reports only by `xmlParseChunk`'s result (bytes
    /// that the declared encoding cannot decode), which stops it without a structured error.
    private func noteEncoderFailure(_ code: Int32) {
        guard code == Int32(XML_ERR_INVALID_ENCODING.rawValue), fatal == nil, failure == nil else { return }
        fatal = LibXML2Error(kind: .encoding, message: "bytes that the declared encoding cannot decode", line: max(1, line))
    }

    // MARK: Callbacks

    /// The line the parser is on.
    private var line: Int { Int(context?.pointee.input?.pointee.line ?? 0) }

    private func run(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do {
            try body()
        } catch {
            failure = error
            if let context { xmlStopParser(context) }
        }
    }

    fileprivate func startElement(
        _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?,
        _ namespaceCount: Int32, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        _ attributeCount: Int32, _ defaultedCount: Int32,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        run {
            let local = String(cString: localName)
            let name = prefix.map { "\(String(cString: $0)):\(local)" } ?? local
            try structure.start(localName: local, name: name, line: line) {
                var list: [OPMLAttribute] = []
                list.reserveCapacity(Int(namespaceCount + attributeCount))
                if let namespaces {
                    for index in 0 ..< Int(namespaceCount) {
                        let declared = namespaces[2 * index].map { "xmlns:\(String(cString: $0))" } ?? "xmlns"
                        list.append(OPMLAttribute(declared, namespaces[2 * index + 1].map { String(cString: $0) } ?? ""))
                    }
                }
                // Attributes a DOCTYPE supplies by default come last; they are not in the file.
                if let attributes {
                    for index in 0 ..< Int(attributeCount - defaultedCount) {
                        let fields = attributes + 5 * index
                        guard let local = fields[0] else { continue }
                        var name = String(cString: local)
                        if let prefix = fields[1] { name = "\(String(cString: prefix)):\(name)" }
                        var value = ""
                        if let start = fields[3], let end = fields[4], end >= start {
                            let bytes = UnsafeBufferPointer(start: start, count: end - start)
                            value = String(decoding: bytes, as: UTF8.self)
                            // Without entity substitution, libxml2 hands every "&" of a value on
                            // as "&#38;" (for a DOM to decode later); a raw "&" cannot occur.
                            if bytes.contains(0x26) { value = value.replacingOccurrences(of: "&#38;", with: "&") }
                        }
                        list.append(OPMLAttribute(name, value))
                    }
                }
                return list
            }
        }
    }

    fileprivate func endElement() {
        run { try structure.end(line: line) }
    }

    fileprivate func characters(_ bytes: UnsafePointer<xmlChar>, _ count: Int32) {
        run { try structure.characters(UnsafeBufferPointer(start: bytes, count: Int(count)), line: line) }
    }

    fileprivate func entityDeclared() { declaredEntities = true }

    fileprivate func report(_ error: xmlError) {
        guard failure == nil, fatal == nil else { return }
        // libxml2's messages end in a newline and some span two lines; make them one line.
        let message = (error.message.map { String(cString: $0) } ?? "unknown error")
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let errorLine = error.line > 0 ? Int(error.line) : line
        guard error.level == XML_ERR_FATAL else {
            run { try structure.libxml2Warning("\(message); read anyway", line: errorLine) }
            return
        }
        let kind: LibXML2Error.Kind
        switch Int(error.code) {
        case Int(XML_ERR_DOCUMENT_EMPTY.rawValue):
            kind = .empty
        case Int(XML_ERR_RESERVED_XML_NAME.rawValue):
            kind = .declarationNotFirst
        case Int(XML_ERR_UNDECLARED_ENTITY.rawValue):
            kind = .undeclaredEntity(error.str1.map { String(cString: $0) } ?? "")
        case Int(XML_ERR_INVALID_ENCODING.rawValue), Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue):
            kind = .encoding
        case Int(XML_ERR_INVALID_CHAR.rawValue) where message.contains("UTF-8") || message.contains("encoding"):
            kind = .encoding
        case Int(XML_ERR_INTERNAL_ERROR.rawValue) where message.contains("depth"):
            kind = .excessiveDepth
        case _ where message.contains("Huge input lookup") || message.contains("too long"):
            kind = .overLimit
        default:
            kind = .other
        }
        fatal = LibXML2Error(kind: kind, message: message, line: errorLine)
    }

    // MARK: Setup

    /// The SAX2 callbacks: elements, text, errors, and entity declarations (only noted, so
    /// that they are never registered for expansion). Everything else stays NULL: no DTD is
    /// loaded and no external entity resolved.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(truncatingIfNeeded: XML_SAX2_MAGIC)
        handler.startElementNs = { user, localName, prefix, _, namespaceCount, namespaces, attributeCount, defaultedCount, attributes in
            guard let user, let localName else { return }
            session(user).startElement(localName, prefix, namespaceCount, namespaces, attributeCount, defaultedCount, attributes)
        }
        handler.endElementNs = { user, _, _, _ in
            guard let user else { return }
            session(user).endElement()
        }
        handler.characters = { user, bytes, count in
            guard let user, let bytes else { return }
            session(user).characters(bytes, count)
        }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = handler.characters
        handler.entityDecl = { user, _, _, _, _, _ in
            guard let user else { return }
            session(user).entityDeclared()
        }
        handler.serror = { user, error in
            guard let user, let error else { return }
            session(user).report(error.pointee)
        }
        return handler
    }

    private static let initialized: Void = { xmlInitParser() }()
    private static let depthLock = NSLock()
    // nonisolated(unsafe): read and written only while `depthLock` is held.
    nonisolated(unsafe) private static var raisedDepth = 0

    /// Initialises libxml2 once and raises its element depth limit to `depth` (never lowering it).
    private static func prepareLibXML2(depth: Int) {
        _ = initialized
        depthLock.withLock {
            guard raisedDepth < depth else { return }
            outline_xmlRaiseMaxDepth(UInt32(depth))
            raisedDepth = depth
        }
    }
}

/// The session a callback's user data points at.
private func session(_ user: UnsafeMutableRawPointer) -> OPMLSAXSession {
    Unmanaged<OPMLSAXSession>.fromOpaque(user).takeUnretainedValue()
}
