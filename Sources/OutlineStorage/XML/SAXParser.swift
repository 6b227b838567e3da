internal import CLibXML2
import Foundation

/// Receives the events of ``SAXParser``. Any method may throw to stop parsing; the error is
/// rethrown by ``SAXParser/parse(_:file:maxDepth:delegate:)``. Throwing ``SAXParser/Stop``
/// ends parsing early without an error.
protocol SAXDelegate: AnyObject {
    func startElement(_ name: SAXName, _ attributes: SAXAttributes, line: Int) throws
    func endElement(_ name: SAXName, line: Int) throws
    func characters(_ text: UnsafeBufferPointer<UInt8>) throws
    /// Whether ``characters(_:)`` should be called for the text that follows (asked after each
    /// element event); text it does not want is not handed over.
    var wantsText: Bool { get }
}

/// XML input in pieces: called once with a consumer, it hands every piece of the input to it in
/// order, stopping early when the consumer returns false (parsing has stopped).
typealias XMLSource = ((UnsafeRawBufferPointer) throws -> Bool) throws -> Void

/// An element name as libxml2 hands it over: a NUL-terminated UTF-8 string, valid during the call.
struct SAXName {
    let pointer: UnsafePointer<UInt8>

    /// Whether the name is exactly `literal` (ASCII).
    func `is`(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        let bytes = literal.utf8Start
        for i in 0 ..< count where pointer[i] != bytes[i] { return false }
        return pointer[count] == 0
    }

    /// Whether the name is exactly `literal` (ASCII), whose copy in the parser's dictionary is
    /// `interned`: libxml2 hands over names from that dictionary, so the addresses mostly decide.
    @inline(__always)
    func `is`(_ literal: StaticString, interned: UnsafePointer<UInt8>?) -> Bool {
        pointer == interned || self.is(literal)
    }

    var string: String { String(cString: pointer) }

    /// The name for messages: at most 60 characters, then `...`.
    var shown: String {
        let text = string
        return text.count > 60 ? text.prefix(60) + "..." : text
    }

    /// The length in bytes, counting at most `limit + 1` of them.
    func length(upTo limit: Int) -> Int {
        var count = 0
        while count <= limit && pointer[count] != 0 { count += 1 }
        return count
    }
}

/// The attributes of an element, as libxml2's SAX2 interface hands them over (valid during the call).
struct SAXAttributes {
    /// Five pointers per attribute: local name, prefix, URI, value start, value end.
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    /// The raw value of the attribute called `name` (ASCII), or nil when absent.
    subscript(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for i in 0 ..< count {
            guard let local = base[5 * i], SAXName(pointer: local).is(name),
                let start = base[5 * i + 3], let end = base[5 * i + 4]
            else { continue }
            return UnsafeBufferPointer(start: start, count: end - start)
        }
        return nil
    }
}

/// Attribute values as the file meant them. Without entity substitution, libxml2 hands an
/// attribute value over with each `&` the file escaped (`&amp;`, `&#38;`, `&#x26;`) spelled
/// `&#38;`, for a tree to decode later; a raw `&` cannot occur in it. Names read from
/// attributes (properties, entities) are decoded here, so that `uni&amp;t` is `uni&t` and a
/// save writes it back as it was read.
enum SAXValue {
    /// Calls `body` with `value`, its `&#38;`s turned back into `&` (a copy only when there are any).
    static func withAmpersandsDecoded<R>(
        _ value: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        guard value.contains(0x26) else { return try body(value) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(value.count)
        let escape: [UInt8] = Array("&#38;".utf8)
        var index = 0
        while index < value.count {
            if value[index] == 0x26, index + escape.count <= value.count,
                value[index ..< index + escape.count].elementsEqual(escape)
            {
                decoded.append(0x26)
                index += escape.count
            } else {
                decoded.append(value[index])
                index += 1
            }
        }
        return try decoded.withUnsafeBufferPointer(body)
    }
}

/// Names looked up in the dictionary of a libxml2 parser: the element and attribute names it
/// hands over come from there, so a name equal to one of these mostly has the same address.
struct SAXDictionary {
    fileprivate let dictionary: xmlDictPtr?

    /// The dictionary's copy of `literal` (ASCII), added when missing; nil when libxml2 fails.
    func interned(_ literal: StaticString) -> UnsafePointer<UInt8>? {
        guard let dictionary else { return nil }
        return xmlDictLookup(dictionary, literal.utf8Start, Int32(literal.utf8CodeUnitCount))
    }
}

/// Drives libxml2's SAX2 push parser over a buffer, safely: no network, no DTD loading, no
/// entity declarations (refused), no entity substitution, and bounds of its own on element
/// depth and name length.
///
/// `XML_PARSE_HUGE` is on: without it libxml2 refuses attribute values over 10,000,000 bytes,
/// and the `idrefs` of a to-many relationship with a million members are longer (every store
/// the writer makes must read back). The delegate bounds the other attributes itself
/// (``StoreElementAttributes``).
///
/// Callbacks arrive one at a time and never nest, so the state they touch is exempt from
/// dynamic exclusivity checks (`@exclusivity(unchecked)`). They go to the one concrete delegate,
/// an ``XMLStoreParser``, called directly rather than through ``SAXDelegate``'s witness table.
final class SAXParser {
    /// Thrown by a delegate to end parsing early without an error.
    struct Stop: Error {}

    /// libxml2 options: forbid network access, lift libxml2's own size limits (see above);
    /// everything that would load or expand is left off.
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue)
    /// The longest element name accepted, in bytes (libxml2's own limit without `XML_PARSE_HUGE`).
    static let maxNameBytes = 50_000
    /// Bytes handed to libxml2 at a time, at least: a sixteenth of the input when that is more.
    /// libxml2 parses a start tag again from its beginning each time a new piece of input
    /// arrives before its end, so an attribute value spanning k pieces costs k times its
    /// length: a hundred pieces per 100 MB `idrefs` took half a minute, sixteen take a second.
    static let chunkSize = 256 * 1024
    /// The most pieces an input is handed over in (see ``chunkSize``).
    static let maximumChunks = 16

    private let file: String
    private let maxDepth: Int
    /// Unretained: `parse` keeps the delegate alive while the parser exists, and a retain and
    /// release per callback are measurable on big stores.
    private let delegateReference: Unmanaged<XMLStoreParser>
    private var context: xmlParserCtxtPtr?
    /// The text callback, installed in the context's handler only while the delegate wants
    /// text: a store has white space between all its elements, and skipping those callbacks
    /// saves a call into Swift per element.
    private var textCallback: charactersSAXFunc?
    @exclusivity(unchecked) private var textOn = true
    @exclusivity(unchecked) private var depth = 0
    /// The first failure: a delegate's error, a refusal, or libxml2's first error.
    @exclusivity(unchecked) private var failure: Error?
    @exclusivity(unchecked) private var stopped = false
    /// The dictionary's copies of the names of most elements of a store, which are short:
    /// names at these addresses skip the length check (see ``SAXDictionary``).
    @exclusivity(unchecked) private var shortNames: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) = (nil, nil, nil)

    private init(file: String, maxDepth: Int, delegate: XMLStoreParser) {
        self.file = file
        self.maxDepth = maxDepth
        self.delegateReference = Unmanaged.passUnretained(delegate)
    }

    /// Parses `bytes` as one XML document, sending events to `delegate`.
    ///
    /// - Throws: the delegate's errors; ``StorageError`` `malformedXML` or `truncated` for XML
    ///   that is not well-formed, `unsafeXML` for DTD declarations, `limitExceeded` for
    ///   nesting deeper than `maxDepth` or content over libxml2's limits.
    static func parse(_ bytes: UnsafeRawBufferPointer, file: String, maxDepth: Int, delegate: XMLStoreParser) throws {
        try parse(file: file, maxDepth: maxDepth, delegate: delegate, source: source(bytes))
    }

    /// A source handing `bytes` over in pieces of ``pieceSize(total:)`` bytes.
    static func source(_ bytes: UnsafeRawBufferPointer) -> XMLSource {
        { consume in
            var offset = 0
            while offset < bytes.count {
                let length = min(pieceSize(total: bytes.count), bytes.count - offset)
                guard try consume(UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + length])) else { return }
                offset += length
            }
        }
    }

    /// How many bytes to hand libxml2 at a time for an input of `total` bytes (see ``chunkSize``).
    static func pieceSize(total: Int) -> Int {
        min(max(chunkSize, total / maximumChunks + 1), Int(Int32.max))
    }

    /// Parses the bytes `source` hands to its consumer, piece after piece, in order, as one XML
    /// document; the consumer returns false once parsing has stopped and no more bytes are wanted.
    /// Pieces may have any size (see ``chunkSize`` for why they should not be small).
    ///
    /// - Throws: as ``parse(_:file:maxDepth:delegate:)``, and whatever `source` throws.
    static func parse(file: String, maxDepth: Int, delegate: XMLStoreParser, source: XMLSource) throws {
        let parser = SAXParser(file: file, maxDepth: maxDepth, delegate: delegate)
        try withExtendedLifetime(parser) { try parser.run(source) }
    }

    /// The line libxml2 is at, 1-based.
    var line: Int {
        // What xmlSAX2GetLineNumber returns, read in place: it is asked twice per element.
        guard let input = context?.pointee.input else { return 0 }
        return Int(input.pointee.line)
    }

    private func run(_ source: XMLSource) throws {
        var handler = SAXParser.handler()
        textCallback = handler.characters
        let unmanaged = Unmanaged.passUnretained(self).toOpaque()
        defer {
            if let context {
                // A DOCTYPE with an internal subset makes libxml2 create a document that freeing the
                // context leaves behind (found by fuzzing: the billion-laughs store leaked it).
                if let document = context.pointee.myDoc { xmlFreeDoc(document) }
                context.pointee.myDoc = nil
                xmlFreeParserCtxt(context)
                self.context = nil
            }
        }
        try source { piece in
            guard var start = piece.baseAddress, !piece.isEmpty else { return true }
            var length = piece.count
            if context == nil {
                // The first four bytes go to the context itself, so that libxml2 detects the
                // encoding (UTF-16 with a byte-order mark) before it reads the XML declaration.
                let head = min(4, length)
                guard let created = xmlCreatePushParserCtxt(&handler, unmanaged, start.assumingMemoryBound(to: CChar.self), Int32(head), file) else {
                    throw StorageError(
                        .limitExceeded, file: file, "libxml2 could not create a parser (out of memory)",
                        hint: "Free some memory and try again.")
                }
                context = created
                _ = xmlCtxtUseOptions(created, SAXParser.options)
                let dictionary = SAXDictionary(dictionary: created.pointee.dict)
                delegateReference._withUnsafeGuaranteedRef { $0.use(dictionary) }
                shortNames = (dictionary.interned("object"), dictionary.interned("attribute"), dictionary.interned("relationship"))
                start += head
                length -= head
            }
            guard let context else { return false }
            while length > 0 && !stopped && failure == nil {
                let size = min(length, Int(Int32.max))
                if xmlParseChunk(context, start.assumingMemoryBound(to: CChar.self), Int32(size), 0) != 0 && failure == nil && !stopped {
                    failure = libxmlFailure(context)
                }
                start += size
                length -= size
            }
            return !stopped && failure == nil
        }
        guard let context else {
            throw StorageError(
                .malformedXML, file: file, "the file is empty",
                hint: "An XML store starts with <?xml ...?> and holds a <database> element; \(BackupAdvice.restore(file, object: "the file")).")
        }
        if !stopped && failure == nil, xmlParseChunk(context, nil, 0, 1) != 0 && failure == nil && !stopped {
            failure = libxmlFailure(context)
        }
        if let failure { throw failure }
        if !stopped && context.pointee.wellFormed == 0 {
            throw libxmlFailure(context)
        }
    }

    /// The error libxml2 recorded last, as a ``StorageError``.
    private func libxmlFailure(_ context: xmlParserCtxtPtr) -> StorageError {
        guard let error = xmlCtxtGetLastError(UnsafeMutableRawPointer(context)) else {
            return StorageError(
                .malformedXML, file: file, at: "line \(line)", "the XML is not well-formed",
                hint: "The file is damaged; \(BackupAdvice.restore(file)).")
        }
        return storageError(from: error.pointee)
    }

    /// Translates one libxml2 error.
    private func storageError(from error: xmlError) -> StorageError {
        var message = error.message.map { String(cString: $0) } ?? "unknown error"
        while message.last?.isWhitespace == true { message.removeLast() }
        let where_ = "line \(error.line > 0 ? Int(error.line) : line)"
        let code = Int(error.code)
        if code == Int(XML_ERR_DOCUMENT_EMPTY.rawValue) {
            // libxml2's word for text where the first element should start, too.
            return StorageError(
                .malformedXML, file: file, at: where_, "the file holds no XML element",
                hint: "An XML store starts with <?xml ...?> and holds a <database> element; \(BackupAdvice.restore(file, object: "the file")).")
        }
        if code == Int(XML_ERR_INTERNAL_ERROR.rawValue) || code == Int(XML_ERR_NAME_TOO_LONG.rawValue)
            || message.contains("too long") || message.contains("Huge input lookup") || message.contains("Excessive depth")
        {
            return StorageError(
                .limitExceeded, file: file, at: where_, "the XML is over libxml2's safety limits (\(message))",
                hint: "A Core Data store never comes near them; the file is not a store or is hostile.")
        }
        if code == Int(XML_ERR_DOCUMENT_END.rawValue) && depth > 0 {
            // The push parser's word for input that stops inside an element.
            return StorageError(
                .truncated, file: file, at: where_,
                "the file ends before its elements are closed (\(depth) still open)",
                hint: "The file is truncated; \(BackupAdvice.restore(file)).")
        }
        if message.hasPrefix("Premature end of data") || code == Int(XML_ERR_TAG_NOT_FINISHED.rawValue)
            || code == Int(XML_ERR_LTSLASH_REQUIRED.rawValue)
        {
            return StorageError(
                .truncated, file: file, at: where_, "the file ends in the middle of the XML (\(message))",
                hint: "The file is truncated; \(BackupAdvice.restore(file)).")
        }
        return StorageError(
            .malformedXML, file: file, at: where_, "the XML is not well-formed (\(message))",
            hint: "The file is damaged; \(BackupAdvice.restore(file)).")
    }

    /// Records `error` as the failure (the first one wins) and stops libxml2.
    fileprivate func fail(_ error: Error) {
        if error is Stop {
            stopped = true
        } else if failure == nil {
            failure = error
        }
        if let context { xmlStopParser(context) }
    }

    fileprivate func refuseDeclaration(_ what: String) {
        fail(
            StorageError(
                .unsafeXML, file: file, at: "line \(line)",
                "the DOCTYPE declares \(what); Core Data stores declare nothing, and this reader never expands entities or loads DTDs",
                hint: "The file was not written by Core Data; do not open it unless you know where it comes from."))
    }

    fileprivate func start(_ name: SAXName, _ attributes: SAXAttributes) {
        depth += 1
        if depth > maxDepth {
            return fail(
                StorageError(
                    .limitExceeded, file: file, at: "line \(line)",
                    "elements are nested more than \(maxDepth) deep",
                    hint: "A Core Data store nests a few levels only; the file is not a store or is hostile."))
        }
        let isShort = name.pointer == shortNames.0 || name.pointer == shortNames.1 || name.pointer == shortNames.2
        if !isShort && name.length(upTo: SAXParser.maxNameBytes) > SAXParser.maxNameBytes {
            return fail(
                StorageError(
                    .limitExceeded, file: file, at: "line \(line)",
                    "an element name is longer than \(XMLValueParsing.grouped(SAXParser.maxNameBytes)) bytes",
                    hint: "A Core Data store uses a few short element names; the file is not a store or is hostile."))
        }
        let current = line
        do { try delegateReference._withUnsafeGuaranteedRef { try $0.startElement(name, attributes, line: current) } } catch { fail(error) }
        updateTextCallback()
    }

    fileprivate func end(_ name: SAXName) {
        depth -= 1
        let current = line
        do { try delegateReference._withUnsafeGuaranteedRef { try $0.endElement(name, line: current) } } catch { fail(error) }
        updateTextCallback()
    }

    /// Installs or removes the text callback as the delegate now wants text or not.
    @inline(__always)
    private func updateTextCallback() {
        let wants = delegateReference._withUnsafeGuaranteedRef { $0.wantsText }
        guard wants != textOn, let sax = context?.pointee.sax else { return }
        sax.pointee.characters = wants ? textCallback : nil
        textOn = wants
    }

    fileprivate func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        do { try delegateReference._withUnsafeGuaranteedRef { try $0.characters(bytes) } } catch { fail(error) }
    }

    /// libxml2's errors arrive here (structured, so nothing is printed); warnings are ignored.
    fileprivate func report(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, failure == nil, !stopped else { return }
        failure = storageError(from: error)
    }

    // MARK: C callbacks

    /// A SAX2 handler whose callbacks forward to the `SAXParser` passed as user data.
    private static func handler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let localName else { return }
            withSAXParser(context) { $0.start(SAXName(pointer: localName), SAXAttributes(base: attributes, count: Int(attributeCount))) }
        }
        handler.endElementNs = { context, localName, _, _ in
            guard let localName else { return }
            withSAXParser(context) { $0.end(SAXName(pointer: localName)) }
        }
        handler.characters = { context, bytes, length in
            guard let bytes, length > 0 else { return }
            withSAXParser(context) { $0.text(UnsafeBufferPointer(start: bytes, count: Int(length))) }
        }
        handler.cdataBlock = handler.characters
        handler.entityDecl = { context, name, _, _, _, _ in
            withSAXParser(context) { $0.refuseDeclaration("the entity \"\(name.map { String(cString: $0) } ?? "")\"") }
        }
        handler.unparsedEntityDecl = { context, name, _, _, _ in
            withSAXParser(context) { $0.refuseDeclaration("the entity \"\(name.map { String(cString: $0) } ?? "")\"") }
        }
        handler.elementDecl = { context, name, _, _ in
            withSAXParser(context) { $0.refuseDeclaration("the element \"\(name.map { String(cString: $0) } ?? "")\"") }
        }
        handler.attributeDecl = { context, element, attribute, _, _, _, tree in
            defer { if let tree { xmlFreeEnumeration(tree) } }
            let name = [element, attribute].compactMap { $0.map { String(cString: $0) } }.joined(separator: " ")
            withSAXParser(context) { $0.refuseDeclaration("attributes of \"\(name)\"") }
        }
        handler.notationDecl = { context, name, _, _ in
            withSAXParser(context) { $0.refuseDeclaration("the notation \"\(name.map { String(cString: $0) } ?? "")\"") }
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            withSAXParser(context) { $0.report(error.pointee) }
        }
        return handler
    }
}

/// Calls `body` with the ``SAXParser`` libxml2 hands back as user data to every callback.
///
/// `parse` keeps the parser alive for the whole parse, so the reference is used as it is,
/// without retaining and releasing it per callback (millions of times for a big store).
@inline(__always)
private func withSAXParser<R>(_ context: UnsafeMutableRawPointer?, _ body: (SAXParser) -> R) -> R {
    guard let context else { preconditionFailure("libxml2 called back without the user data it was given") }
    return Unmanaged<SAXParser>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
}
