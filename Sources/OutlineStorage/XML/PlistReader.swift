import Foundation

/// Builds a property-list value from the SAX events inside a store's `<metadata>` element: an
/// inline XML property list (`<plist version="1.0"><dict>...`) without an XML declaration.
///
/// Dictionary keys keep their file order. A bare value without `<plist>` is accepted too.
struct PlistReader {
    private enum Frame {
        case plist(PropertyListValue?)
        case dict([(key: String, value: PropertyListValue)], pendingKey: String?)
        case array([PropertyListValue])
    }

    private enum Scalar {
        case key, string, integer, real, date, data, `true`, `false`
    }

    let file: String
    /// The most text one value may hold.
    let maxTextBytes: Int
    private var stack: [Frame] = []
    private var scalar: Scalar?
    private var text: [UInt8] = []
    /// The value read, once the outermost element has ended.
    private(set) var result: PropertyListValue?

    init(file: String, maxTextBytes: Int) {
        self.file = file
        self.maxTextBytes = maxTextBytes
    }

    /// Whether an element of the property list is open.
    var isOpen: Bool { !stack.isEmpty || scalar != nil }

    mutating func startElement(_ name: SAXName, line: Int) throws {
        guard scalar == nil, !(stack.isEmpty && result != nil) else { throw unexpected(name, line) }
        if name.is("plist") {
            guard stack.isEmpty else { throw unexpected(name, line) }
            stack.append(.plist(nil))
        } else if name.is("dict") {
            stack.append(.dict([], pendingKey: nil))
        } else if name.is("array") {
            stack.append(.array([]))
        } else {
            let kinds: [(StaticString, Scalar)] = [
                ("key", .key), ("string", .string), ("integer", .integer), ("real", .real),
                ("date", .date), ("data", .data), ("true", .true), ("false", .false),
            ]
            guard let kind = kinds.first(where: { name.is($0.0) })?.1 else { throw unexpected(name, line) }
            scalar = kind
            text.removeAll(keepingCapacity: true)
        }
    }

    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws {
        guard scalar != nil else { return }
        guard text.count + bytes.count <= maxTextBytes else {
            throw StorageError(
                .limitExceeded, file: file, at: "line \(line)",
                "a metadata value is longer than \(XMLValueParsing.grouped(maxTextBytes)) bytes",
                hint: "Core Data metadata is small; the file is not a store or is hostile.")
        }
        text.append(contentsOf: bytes)
    }

    mutating func endElement(_ name: SAXName, line: Int) throws {
        if let kind = scalar {
            scalar = nil
            if kind == .key {
                guard case .dict(let entries, nil)? = stack.last else {
                    throw StorageError(
                        .malformedXML, file: file, at: "line \(line)",
                        "the metadata has a <key> outside a <dict> or two keys in a row",
                        hint: "The metadata property list is damaged; \(BackupAdvice.restore(file, object: "the file")).")
                }
                stack[stack.count - 1] = .dict(entries, pendingKey: String(decoding: text, as: UTF8.self))
                return
            }
            return try add(value(of: kind, line: line), line: line)
        }
        guard let frame = stack.popLast() else { throw unexpected(name, line) }
        switch frame {
        case .plist(let value):
            result = value ?? .dictionary([])
        case .dict(let entries, let pendingKey):
            if let pendingKey {
                throw StorageError(
                    .malformedXML, file: file, at: "line \(line)",
                    "the metadata key \"\(pendingKey)\" has no value",
                    hint: "The metadata property list is damaged; \(BackupAdvice.restore(file, object: "the file")).")
            }
            try add(.dictionary(entries), line: line)
        case .array(let values):
            try add(.array(values), line: line)
        }
    }

    private mutating func add(_ value: PropertyListValue, line: Int) throws {
        guard let top = stack.popLast() else {
            result = value
            return
        }
        switch top {
        case .plist(nil):
            stack.append(.plist(value))
        case .plist:
            throw StorageError(
                .malformedXML, file: file, at: "line \(line)", "the metadata <plist> holds more than one value",
                hint: "The metadata property list is damaged; \(BackupAdvice.restore(file, object: "the file")).")
        case .dict(var entries, let key?):
            entries.append((key, value))
            stack.append(.dict(entries, pendingKey: nil))
        case .dict(_, nil):
            throw StorageError(
                .malformedXML, file: file, at: "line \(line)", "the metadata has a value without a <key> in a <dict>",
                hint: "The metadata property list is damaged; \(BackupAdvice.restore(file, object: "the file")).")
        case .array(var values):
            values.append(value)
            stack.append(.array(values))
        }
    }

    private func value(of kind: Scalar, line: Int) throws -> PropertyListValue {
        let bytes = text
        return try bytes.withUnsafeBufferPointer { bytes in
            func bad(_ what: String) -> StorageError {
                StorageError(
                    .corrupt, file: file, at: "line \(line)",
                    "the metadata value \(XMLValueParsing.quoted(bytes)) is not \(what)",
                    hint: "The metadata property list is damaged; \(BackupAdvice.restore(file, object: "the file")).")
            }
            switch kind {
            case .key, .string:
                return .string(String(decoding: bytes, as: UTF8.self))
            case .integer:
                guard let value = XMLValueParsing.integer(bytes) else { throw bad("an integer") }
                return .integer(value)
            case .real:
                guard let value = XMLValueParsing.double(bytes) else { throw bad("a real number") }
                return .real(value)
            case .date:
                guard let value = XMLValueParsing.plistDate(String(decoding: bytes, as: UTF8.self)) else {
                    throw bad("a date (YYYY-MM-DDTHH:MM:SSZ)")
                }
                return .date(value)
            case .data:
                var decoded: [UInt8] = []
                guard XMLValueParsing.base64(bytes, into: &decoded) else { throw bad("base64 data") }
                return .data(Data(decoded))
            case .true:
                return .boolean(true)
            case .false:
                return .boolean(false)
            }
        }
    }

    private func unexpected(_ name: SAXName, _ line: Int) -> StorageError {
        StorageError(
            .malformedXML, file: file, at: "line \(line)",
            "unexpected element <\(name.shown)> in the metadata property list",
            hint: "The metadata property list is damaged; \(BackupAdvice.restore(file, object: "the file")).")
    }
}
