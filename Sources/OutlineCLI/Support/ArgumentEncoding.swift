#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Arguments the tool cannot take as they are: Swift decodes arguments that are not UTF-8
/// with U+FFFD in place of the bad bytes, so `new\xff.outline` and `new\xfe.outline` would
/// both name `new\u{FFFD}.outline` and one command would change the other's file.
enum ArgumentEncoding {
    /// The message for the first argument that is not valid UTF-8, or nil when all are.
    static func problem(_ count: Int32, _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> String? {
        for index in 1 ..< Int(max(count, 1)) {
            guard let argument = arguments[index] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument))
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            let shown = bytes.prefix(40).map { byte in
                byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true)
            }.joined()
            return "argument \(index) (\(shown)\(bytes.count > 40 ? "..." : "")) is not valid UTF-8. "
                + "File names and texts must be UTF-8; rename the file (for example with `mv` and a UTF-8 name) and try again."
        }
        return nil
    }

    /// Ends the process with the status of bad usage (64), as argument errors do.
    static func exitForBadUsage() -> Never {
        exit(64)
    }
}
