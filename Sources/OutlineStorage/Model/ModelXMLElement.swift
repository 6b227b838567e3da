internal import CLibXML2
import Foundation

/// An element of a parsed model file: a plain Swift copy of the libxml2 DOM node, with its line.
///
/// Model files are small, so the whole document is parsed into a DOM, copied into these
/// values and freed at once; nothing of libxml2 outlives ``parse(_:file:)``.
struct ModelXMLElement: Sendable, Equatable {
    var name: String
    var attributes: [String: String]
    var children: [ModelXMLElement]
    /// The 1-based line of the start tag.
    var line: Int

    subscript(attribute: String) -> String? { attributes[attribute] }

    /// The child elements called `name`, in document order.
    func children(named name: String) -> [ModelXMLElement] { children.filter { $0.name == name } }

    /// Whether boolean attribute `attribute` is set: `YES` or `true` (any case), else `false`.
    func flag(_ attribute: String) -> Bool {
        guard let value = attributes[attribute]?.lowercased() else { return false }
        return value == "yes" || value == "true" || value == "1"
    }

    /// Deeper elements than this are not copied: no model element nests more than five deep.
    static let depthLimit = 32

    /// Parses `data` as XML and returns its root element.
    ///
    /// No network access, no external DTD, no entity substitution; the encoding comes from the
    /// XML declaration (Xcode writes UTF-8).
    /// - Throws: ``StorageError`` `malformedXML` with the line of the first error; `unsafeXML` when
    ///   the DOCTYPE declares an entity (refused at the declaration, so nothing ever expands).
    static func parse(_ data: Data, file: String) throws -> ModelXMLElement {
        _ = libxml2Initialized
        guard let context = xmlNewParserCtxt() else {
            throw StorageError(
                .malformedXML, file: file, "libxml2 could not make a parser (out of memory)",
                hint: "Free some memory and try again.")
        }
        defer { xmlFreeParserCtxt(context) }
        // libxml2 remembers only the last error, which after a fatal one is a less helpful
        // "Premature end of data"; keep the first instead.
        let firstError = Unmanaged.passRetained(FirstError())
        defer { firstError.release() }
        context.pointee._private = firstError.toOpaque()
        context.pointee.sax.pointee.serror = { userData, error in
            // `userData` is the parser context itself (libxml2's default).
            guard let userData, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                let box = userData.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private
            else { return }
            let first = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
            guard first.message == nil else { return }
            first.message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
            first.line = Int(error.pointee.line)
        }
        // Xcode never declares entities; refuse them at the declaration, before anything can
        // expand (entities in attribute values would be expanded by the copy below).
        context.pointee.sax.pointee.entityDecl = { userData, name, _, _, _, _ in
            guard let userData else { return }
            let parser = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            if let box = parser.pointee._private {
                let first = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
                if first.declaredEntity == nil {
                    first.declaredEntity = name.map { String(cString: $0) } ?? ""
                    first.declarationLine = Int(xmlSAX2GetLineNumber(userData))
                }
            }
            xmlStopParser(parser)
        }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_BIG_LINES.rawValue)
        let document: xmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count <= Int(Int32.max) else { return nil }
            return xmlCtxtReadMemory(
                context, base.assumingMemoryBound(to: CChar.self), Int32(raw.count),
                nil, nil, options)
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let entity = firstError.takeUnretainedValue().declaredEntity {
            throw StorageError(
                .unsafeXML, file: file, at: "line \(firstError.takeUnretainedValue().declarationLine)",
                "the DOCTYPE declares the entity \"\(entity)\"; Xcode models declare none, and this reader never expands entities or loads DTDs",
                hint: "The file was not written by Xcode; do not open it unless you know where it comes from.")
        }
        guard let document else { throw parseError(firstError.takeUnretainedValue(), data: data, file: file) }
        guard let root = xmlDocGetRootElement(document) else {
            throw StorageError(
                .malformedXML, file: file, "the document has no root element",
                hint: "The file is empty or damaged; restore it from a backup or re-save the model in Xcode.")
        }
        return copy(root, document: document, depth: 0)
    }

    private static let libxml2Initialized: Void = { xmlInitParser() }()

    /// The first error libxml2 reported while parsing.
    private final class FirstError {
        var message: String?
        var line = 0
        /// The first entity the document declares, and where.
        var declaredEntity: String?
        var declarationLine = 0
    }

    private static func parseError(_ first: FirstError, data: Data, file: String) -> StorageError {
        let hint = "The file is not a well-formed Xcode data model; restore it from a backup or re-save it in Xcode."
        guard data.count > 0 else {
            return StorageError(.malformedXML, file: file, "the file is empty", hint: hint)
        }
        guard let message = first.message else {
            return StorageError(.malformedXML, file: file, "not well-formed XML", hint: hint)
        }
        let reason = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if reason.hasPrefix("Excessive depth") || reason.contains("too long") || reason.contains("Huge input lookup") {
            // libxml2's own limits; its advice (XML_PARSE_HUGE) is not for users.
            return StorageError(
                .limitExceeded, file: file, at: "line \(max(1, first.line))",
                "the XML is over libxml2's safety limits (\(reason.replacingOccurrences(of: " use XML_PARSE_HUGE option", with: "")))",
                hint: "An Xcode model nests a few levels and holds short values; the file is damaged or hostile.")
        }
        return StorageError(
            .malformedXML, file: file, at: "line \(max(1, first.line))",
            "not well-formed XML (\(reason))", hint: hint)
    }

    private static func copy(_ node: xmlNodePtr, document: xmlDocPtr, depth: Int) -> ModelXMLElement {
        var element = ModelXMLElement(
            name: string(node.pointee.name), attributes: [:], children: [], line: Int(xmlGetLineNo(node)))
        var attribute = node.pointee.properties
        while let current = attribute {
            if let value = xmlNodeListGetString(document, current.pointee.children, 1) {
                defer { outline_xmlFree(value) }
                element.attributes[string(current.pointee.name)] = String(cString: value)
            } else {
                element.attributes[string(current.pointee.name)] = ""
            }
            attribute = current.pointee.next
        }
        guard depth < depthLimit else { return element }
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                element.children.append(copy(current, document: document, depth: depth + 1))
            }
            child = current.pointee.next
        }
        return element
    }

    private static func string(_ name: UnsafePointer<xmlChar>?) -> String {
        name.map { String(cString: $0) } ?? ""
    }
}
