import Foundation
import OutlineStorage

/// The OPML attributes of an item that no other property holds, and the places of those that
/// one does, in file order: what an item's `extraAttributes` stores so that an OPML export
/// writes back every attribute, in its original order and place.
///
/// An item read from `<outline _status="checked" text="Buy milk" id="7" _note="2 l"/>` keeps
/// `[mapped _status, mapped text, kept id="7", mapped _note]`: the text, done state and note
/// live in their properties, `id` lives here, and the export writes all four in this order.
/// Items whose attributes are only mapped ones in the canonical order (`text`, `_note`, done,
/// `collapsed`, `created`) store nothing. Markdown keeps its `key:: value` properties and task
/// slots here the same way (see `MarkdownItemAttributes`), so each format writes back what the
/// other read.
///
/// ## Encoding (version 1)
/// Deterministic, compact, and checked when decoded:
///
///     extraAttributes := 0x01 entry*
///     entry           := 0x00 string(name) string(value)    kept attribute
///                      | 0x01 string(name)                  mapped, canonical spelling
///                      | 0x02 string(name) string(spelling) mapped, original spelling
///     string          := varint(byte count) UTF-8 bytes
///     varint          := unsigned LEB128, shortest form, at most 0x7FFFFFFF
///
/// A mapped attribute's spelling is kept when it is not the one the exporter would write
/// (`created="Tue, 12 Mar 2024 14:03:00 +0100"`, `collapsed="1"`); the exporter writes it back
/// as long as the property still has the value it spells.
public struct ExtraAttributes: Sendable, Hashable {
    /// One attribute of the original element.
    public enum Entry: Sendable, Hashable {
        /// An attribute no property holds, written back as it is.
        case kept(name: String, value: String)
        /// The place of an attribute a property holds (`text`, `_note`, a done attribute,
        /// `collapsed`, `created`), with its original spelling when that is not canonical.
        case mapped(name: String, spelling: String?)

        /// The attribute's name.
        public var name: String {
            switch self {
            case .kept(let name, _), .mapped(let name, _): name
            }
        }
    }

    /// The entries, in the order the source file had them.
    public var entries: [Entry]

    /// A set of `entries`, kept in order.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The current encoding version, the first byte of every encoding.
    public static let version: UInt8 = 1

    /// The attributes no property holds, in order.
    public var kept: [OPMLAttribute] {
        entries.compactMap { if case .kept(let name, let value) = $0 { OPMLAttribute(name, value) } else { nil } }
    }

    // MARK: Encoding

    /// The bytes of version 1 of the encoding.
    public func encoded() -> Data {
        var bytes: [UInt8] = [Self.version]
        func string(_ text: String) {
            var count = UInt32(clamping: text.utf8.count)
            repeat {
                let low = UInt8(count & 0x7F)
                count >>= 7
                bytes.append(count == 0 ? low : low | 0x80)
            } while count != 0
            bytes.append(contentsOf: text.utf8)
        }
        for entry in entries {
            switch entry {
            case .kept(let name, let value):
                bytes.append(0x00)
                string(name)
                string(value)
            case .mapped(let name, nil):
                bytes.append(0x01)
                string(name)
            case .mapped(let name, let spelling?):
                bytes.append(0x02)
                string(name)
                string(spelling)
            }
        }
        return Data(bytes)
    }

    /// Decodes and checks `data`.
    ///
    /// - Parameter item: how messages name the item, such as `item 2.3 (#105)`.
    /// - Parameter data: the bytes an item stores, as ``encoded()`` made them.
    /// - Throws: ``OutlineError`` `corruptValue` naming the byte offset: an unknown version or
    ///   entry tag, a count that runs past the end or is not in shortest form, bytes that are
    ///   not UTF-8, a name that is empty or not an XML name, or a name used twice.
    public init(decoding data: Data, item: String? = nil) throws {
        var cursor = Cursor(bytes: [UInt8](data), item: item)
        let version = try cursor.readByte(what: "the version byte")
        guard version == Self.version else {
            throw cursor.error(at: 0, "unknown encoding version \(version) (this build reads version \(Self.version))")
        }
        var names: Set<String> = []
        entries = []
        while !cursor.atEnd {
            let start = cursor.offset
            let tag = try cursor.readByte(what: "an entry tag")
            guard tag <= 0x02 else { throw cursor.error(at: start, "unknown entry tag \(tag)") }
            let nameOffset = cursor.offset
            let name = try cursor.readString(what: "an attribute name")
            guard Self.isXMLName(name) else {
                throw cursor.error(at: nameOffset, "\"\(name)\" is not an XML attribute name")
            }
            guard names.insert(name).inserted else {
                throw cursor.error(at: nameOffset, "the attribute name \"\(name)\" appears twice")
            }
            switch tag {
            case 0x00: entries.append(.kept(name: name, value: try cursor.readString(what: "the value of \(name)")))
            case 0x01: entries.append(.mapped(name: name, spelling: nil))
            default: entries.append(.mapped(name: name, spelling: try cursor.readString(what: "the spelling of \(name)")))
            }
        }
    }

    /// Whether `name` can be written as an attribute name: XML name characters, no spaces.
    static func isXMLName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "-", first != ".", !("0" ... "9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x80
                ? !scalar.properties.isWhitespace
                : ("a" ... "z").contains(scalar) || ("A" ... "Z").contains(scalar) || ("0" ... "9").contains(scalar)
                    || scalar == "_" || scalar == ":" || scalar == "-" || scalar == "."
        }
    }
}

/// A bounds-checked reader over the encoded bytes.
private struct Cursor {
    let bytes: [UInt8]
    let item: String?
    var offset = 0

    var atEnd: Bool { offset >= bytes.count }

    mutating func readByte(what: String) throws -> UInt8 {
        guard offset < bytes.count else { throw error(at: offset, "the data ends before \(what)") }
        offset += 1
        return bytes[offset - 1]
    }

    mutating func readString(what: String) throws -> String {
        let start = offset
        var count: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            let byte = try readByte(what: "the byte count of \(what)")
            count |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                guard byte != 0 || shift == 0 else { throw error(at: start, "the byte count of \(what) is not in shortest form") }
                break
            }
            shift += 7
            guard shift < 31 else { throw error(at: start, "the byte count of \(what) is too large") }
        }
        guard count <= UInt32(bytes.count - offset) else {
            throw error(at: start, "\(what) needs \(count) bytes but only \(bytes.count - offset) remain")
        }
        let slice = bytes[offset ..< offset + Int(count)]
        let text = String(decoding: slice, as: UTF8.self)
        guard text.utf8.elementsEqual(slice) else {
            throw error(at: offset, "\(what) is not valid UTF-8")
        }
        offset += Int(count)
        return text
    }

    func error(at byte: Int, _ message: String) -> OutlineError {
        let place = [item, "extraAttributes byte \(byte)"].compactMap { $0 }.joined(separator: ": ")
        return OutlineError(
            .corruptValue, at: place, message,
            hint:
                "The stored OPML attributes of this item are damaged; clear them (they are only used to write OPML back) or restore the document from a backup."
        )
    }
}
