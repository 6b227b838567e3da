import Foundation

/// Receives the objects of an XML store as ``XMLStoreParser`` reads them. Byte buffers are
/// valid during the call only.
protocol StoreObjectSink: AnyObject {
    /// `<object type="..." id="...">`.
    func beginObject(type: UnsafeBufferPointer<UInt8>, id: UnsafeBufferPointer<UInt8>, line: Int) throws
    /// `<attribute name="..." type="...">`; returns whether the sink wants the value text.
    func beginAttribute(name: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>?, line: Int) throws -> Bool
    /// `</attribute>`, with the text collected since ``beginAttribute(name:type:line:)``.
    func endAttribute(text: UnsafeBufferPointer<UInt8>, line: Int) throws
    /// `<relationship name="..." type="..." destination="..." idrefs="...">`, with `idrefs`
    /// found already; the sink reads any other attributes it needs from `attributes`.
    func relationship(name: UnsafeBufferPointer<UInt8>, idrefs: UnsafeBufferPointer<UInt8>?, attributes: SAXAttributes, line: Int) throws
    /// `</object>`.
    func endObject(line: Int) throws
}

/// The SAX state machine of an XML store document: `<database>`, `<databaseInfo>` with its
/// metadata property list, then `<object>` elements handed to a ``StoreObjectSink``.
///
/// Once `</databaseInfo>` has been read, `onMetadata` decides what happens to the objects: it
/// returns the sink for them, or nil to stop parsing there.
///
/// SAX callbacks arrive one at a time and never nest, so the state touched per element is
/// exempt from dynamic exclusivity checks (`@exclusivity(unchecked)`).
final class XMLStoreParser: SAXDelegate {
    /// The only `<version>` Core Data has ever written.
    static let storeVersion: Int64 = 134_481_920

    private enum Place {
        case document, database, info, infoField, metadata, object, attribute, relationship, end
    }

    private enum InfoField {
        case version, uuid, nextObjectID
    }

    let file: String
    let maxTextBytes: Int
    private let onMetadata: (StoreMetadata, Int) throws -> StoreObjectSink?
    @exclusivity(unchecked) private var place = Place.document
    private var infoField = InfoField.version
    @exclusivity(unchecked) private var collecting = false
    /// The text collected so far: `textCount` bytes at `textBytes`, a buffer of `textCapacity`
    /// bytes that only grows and is freed with the parser. Collecting a value costs a copy of
    /// its bytes, and handing it over no retain or uniqueness check of an array.
    @exclusivity(unchecked) private var textBytes: UnsafeMutablePointer<UInt8>?
    @exclusivity(unchecked) private var textCapacity = 0
    @exclusivity(unchecked) private var textCount = 0
    private var plist: PlistReader
    private var version: Int64?
    private var uuid: UUID?
    private var nextObjectID: UInt64?
    private var sawMetadata = false
    /// Not retained: `onMetadata`'s caller keeps the sink alive until parsing ends, and a
    /// retain and release per element are measurable on big stores.
    @exclusivity(unchecked) private unowned(unsafe) var sink: StoreObjectSink?
    /// The sink when it is an ``XMLObjectDecoder`` (opening a store): called directly, unretained.
    @exclusivity(unchecked) private var decoder: Unmanaged<XMLObjectDecoder>?
    @exclusivity(unchecked) private var hasSink = false
    /// The dictionary's copies of the element and attribute names of a store (see ``SAXDictionary``).
    @exclusivity(unchecked) private var attributeNames = StoreElementAttributes.Names()
    @exclusivity(unchecked) private var objectName: UnsafePointer<UInt8>?
    @exclusivity(unchecked) private var attributeName: UnsafePointer<UInt8>?
    @exclusivity(unchecked) private var relationshipName: UnsafePointer<UInt8>?
    /// The metadata, once `</databaseInfo>` has been read.
    private(set) var metadata: StoreMetadata?

    init(file: String, maxTextBytes: Int, onMetadata: @escaping (StoreMetadata, Int) throws -> StoreObjectSink?) {
        self.file = file
        self.maxTextBytes = maxTextBytes
        self.onMetadata = onMetadata
        self.plist = PlistReader(file: file, maxTextBytes: XMLStore.maxMetadataTextBytes)
    }

    deinit { textBytes?.deallocate() }

    /// Parses `bytes` and checks that the store had its `<databaseInfo>`.
    func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws {
        try parse(SAXParser.source(bytes), maxDepth: maxDepth)
    }

    /// Parses what `source` hands over and checks that the store had its `<databaseInfo>`.
    func parse(_ source: XMLSource, maxDepth: Int) throws {
        do {
            try SAXParser.parse(file: file, maxDepth: maxDepth, delegate: self, source: source)
        } catch let error as StorageError where place == .document && error.code == .malformedXML && error.location != nil {
            // libxml2 words a document without elements in odd ways ("Extra content at the end").
            let reason = error.message.hasPrefix("the file holds no XML element") ? error.message : "the file holds no XML element"
            throw StorageError(
                .malformedXML, file: file, at: error.location, reason,
                hint: "An XML store starts with <?xml ...?> and holds a <database> element; \(BackupAdvice.restore(file, object: "the file")).")
        }
        if metadata == nil {
            throw StorageError(
                .malformedXML, file: file, "the store has no <databaseInfo>",
                hint: "A Core Data XML store starts with <database><databaseInfo>; the file is not a store or is damaged.")
        }
    }

    /// Takes the names a store uses from the parser's dictionary.
    func use(_ dictionary: SAXDictionary) {
        attributeNames = StoreElementAttributes.Names(dictionary)
        objectName = dictionary.interned("object")
        attributeName = dictionary.interned("attribute")
        relationshipName = dictionary.interned("relationship")
    }

    /// Calls `body` with the sink: the decoder directly when it is one, unretained either way.
    @inline(__always)
    private func withSink<R>(_ body: (StoreObjectSink) throws -> R) rethrows -> R? {
        if let decoder { return try decoder._withUnsafeGuaranteedRef { try body($0) } }
        guard let sink else { return nil }
        return try body(sink)
    }

    func startElement(_ name: SAXName, _ attributes: SAXAttributes, line: Int) throws {
        currentLine = line
        let found = StoreElementAttributes(attributes, names: attributeNames, limit: XMLStore.maxAttributeBytes)
        if let long = found.tooLongName {
            throw StorageError(
                .limitExceeded, file: file, at: "line \(line)",
                "the attribute \(long.shown) of <\(name.shown)> is \(XMLValueParsing.grouped(found.tooLongLength)) bytes long, over the limit of \(XMLValueParsing.grouped(XMLStore.maxAttributeBytes))",
                hint: "Core Data stores hold no names or values that long there; the file is not a store or is hostile.")
        }
        switch place {
        case .document:
            guard name.is("database") else {
                // libxml2 reports a tag cut off by the end of the file as an element of the
                // name so far (`<datab`): a store truncated there.
                if name.shown.count < "database".count && "database".hasPrefix(name.shown) {
                    throw StorageError(
                        .truncated, file: file, at: "line \(line)", "the file ends inside its <database> tag",
                        hint: "The file is truncated; \(BackupAdvice.restore(file)).")
                }
                throw StorageError(
                    .unknownFormat, file: file, at: "line \(line)",
                    "the root element is <\(name.shown)>, not <database>",
                    hint: "This is not a Core Data XML store; check that this is the file you meant.")
            }
            place = .database
        case .database:
            if name.is("object", interned: objectName) {
                guard hasSink else {
                    throw StorageError(
                        .malformedXML, file: file, at: "line \(line)", "an <object> comes before <databaseInfo>",
                        hint: "A Core Data XML store starts with <databaseInfo>; the file is damaged.")
                }
                let type = try required(found.type, "type", of: "object", line)
                let id = try required(found.id, "id", of: "object", line)
                try SAXValue.withAmpersandsDecoded(type) { type in try withSink { try $0.beginObject(type: type, id: id, line: line) } }
                place = .object
            } else if name.is("databaseInfo") && metadata == nil {
                place = .info
            } else {
                throw unexpected(name, in: "database", line)
            }
        case .info:
            if name.is("metadata") && !sawMetadata {
                sawMetadata = true
                place = .metadata
                return
            }
            if name.is("version") && version == nil {
                infoField = .version
            } else if name.is("UUID") && uuid == nil {
                infoField = .uuid
            } else if name.is("nextObjectID") && nextObjectID == nil {
                infoField = .nextObjectID
            } else {
                throw unexpected(name, in: "databaseInfo", line)
            }
            place = .infoField
            startCollecting()
        case .metadata:
            try plist.startElement(name, line: line)
        case .object:
            if name.is("attribute", interned: attributeName), hasSink {
                let propertyName = try required(found.name, "name", of: "attribute", line)
                let wants =
                    try SAXValue.withAmpersandsDecoded(propertyName) { name in
                        try withSink { try $0.beginAttribute(name: name, type: found.type, line: line) }
                    } ?? false
                place = .attribute
                if wants { startCollecting() }
            } else if name.is("relationship", interned: relationshipName), hasSink {
                let propertyName = try required(found.name, "name", of: "relationship", line)
                try SAXValue.withAmpersandsDecoded(propertyName) { name in
                    try withSink { try $0.relationship(name: name, idrefs: found.idrefs, attributes: attributes, line: line) }
                }
                place = .relationship
            } else {
                throw unexpected(name, in: "object", line)
            }
        case .infoField, .attribute, .relationship, .end:
            let parent = place == .attribute ? "attribute" : place == .relationship ? "relationship" : place == .end ? "document" : "databaseInfo"
            throw unexpected(name, in: parent, line)
        }
    }

    func endElement(_ name: SAXName, line: Int) throws {
        switch place {
        case .infoField:
            try finishInfoField(line: line)
            place = .info
        case .metadata:
            if plist.isOpen {
                try plist.endElement(name, line: line)
            } else {
                place = .info
            }
        case .info:
            try finishInfo(line: line)
            place = .database
        case .attribute:
            if collecting {
                collecting = false
                try withText { bytes in try withSink { try $0.endAttribute(text: bytes, line: line) } }
            }
            place = .object
        case .relationship:
            place = .object
        case .object:
            try withSink { try $0.endObject(line: line) }
            place = .database
        case .database, .document, .end:
            place = .end
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if collecting {
            guard textCount + bytes.count <= maxTextBytes else {
                throw StorageError(
                    .limitExceeded, file: file, at: "line \(currentLine)",
                    "a value is longer than \(XMLValueParsing.grouped(maxTextBytes)) bytes",
                    hint: "Core Data stores hold no values that long; the file is not a store or is hostile.")
            }
            let end = textCount + bytes.count
            if end > textCapacity { growText(to: end) }
            if let source = bytes.baseAddress, let textBytes { (textBytes + textCount).update(from: source, count: bytes.count) }
            textCount = end
        } else if place == .metadata {
            try plist.characters(bytes, line: currentLine)
        }
    }

    /// Text matters while collecting a value and in the metadata property list only.
    var wantsText: Bool { collecting || place == .metadata }

    /// The line of the element being read, for errors raised while collecting text.
    @exclusivity(unchecked) private var currentLine = 0

    private func startCollecting() {
        collecting = true
        textCount = 0
    }

    /// Calls `body` with the text collected.
    @inline(__always)
    private func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: textBytes, count: textCount))
    }

    /// Makes room for `needed` bytes of text (at least twice the room so far), keeping the
    /// text collected.
    private func growText(to needed: Int) {
        let capacity = max(needed, 2 * textCapacity, 256)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        if let textBytes {
            grown.update(from: textBytes, count: textCount)
            textBytes.deallocate()
        }
        textBytes = grown
        textCapacity = capacity
    }

    private func finishInfoField(line: Int) throws {
        collecting = false
        try withText { bytes in
            switch infoField {
            case .version:
                guard let value = XMLValueParsing.integer(bytes) else { throw invalid("<version>", bytes, "a number", line) }
                guard value == XMLStoreParser.storeVersion else {
                    throw StorageError(
                        .unsupportedVersion, file: file, at: "line \(line)",
                        "the store version is \(value), not \(XMLStoreParser.storeVersion)",
                        hint:
                            "Core Data has only ever written version \(XMLStoreParser.storeVersion); the file is not a Core Data store or was edited."
                    )
                }
                version = value
            case .uuid:
                guard let value = UUID(uuidString: String(decoding: XMLValueParsing.trimmed(bytes), as: UTF8.self)) else {
                    throw invalid("<UUID>", bytes, "a UUID", line)
                }
                uuid = value
            case .nextObjectID:
                guard let value = XMLValueParsing.unsigned(bytes) else { throw invalid("<nextObjectID>", bytes, "a number", line) }
                // The last id handed out: the next one must still be an id a document may hold.
                guard value <= StoreLimits.maximumObjectID else {
                    throw XMLStoreErrors.idOverLimit("<nextObjectID> is \(value), over", file: file, line: line)
                }
                nextObjectID = value
            }
        }
    }

    private func finishInfo(line: Int) throws {
        guard version != nil else { throw missing("<version>", line) }
        guard let uuid else { throw missing("<UUID>", line) }
        let metadata = try XMLMetadataMapping.metadata(
            from: plist.result, uuid: uuid, nextObjectID: nextObjectID,
            file: file, line: line)
        self.metadata = metadata
        guard let sink = try onMetadata(metadata, line) else { throw SAXParser.Stop() }
        self.sink = sink
        decoder = (sink as? XMLObjectDecoder).map { Unmanaged.passUnretained($0) }
        hasSink = true
    }

    @inline(__always)
    private func required(
        _ value: UnsafeBufferPointer<UInt8>?, _ attribute: StaticString, of element: StaticString, _ line: Int
    ) throws -> UnsafeBufferPointer<UInt8> {
        guard let value else { throw missingAttribute(attribute, of: element, line) }
        return value
    }

    private func missingAttribute(_ attribute: StaticString, of element: StaticString, _ line: Int) -> StorageError {
        StorageError(
            .malformedXML, file: file, at: "line \(line)", "<\(element)> has no \(attribute) attribute",
            hint: "Core Data writes it on every <\(element)>; the file is damaged.")
    }

    private func invalid(_ element: String, _ bytes: UnsafeBufferPointer<UInt8>, _ what: String, _ line: Int) -> StorageError {
        StorageError(
            .corrupt, file: file, at: "line \(line)", "\(element) holds \(XMLValueParsing.quoted(bytes)), which is not \(what)",
            hint: "The store header is damaged; \(BackupAdvice.restore(file, object: "the file")).")
    }

    private func missing(_ element: String, _ line: Int) -> StorageError {
        StorageError(
            .corrupt, file: file, at: "line \(line)", "<databaseInfo> has no \(element)",
            hint: "The store header is damaged; \(BackupAdvice.restore(file, object: "the file")).")
    }

    private func unexpected(_ name: SAXName, in parent: String, _ line: Int) -> StorageError {
        StorageError(
            .malformedXML, file: file, at: "line \(line)", "unexpected element <\(name.shown)> in <\(parent)>",
            hint: "This is not the layout of a Core Data XML store; the file is damaged or of another kind.")
    }
}
