import OutlineKit

/// A small, fast JSON text builder: values are appended in order, strings escaped per RFC 8259.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ text: String?) {
        guard let text else { return raw("null") }
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0 ..< 0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func key(_ name: String) {
        string(name)
        raw(": ")
    }

    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    mutating func int(_ value: Int) { raw(String(value)) }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
