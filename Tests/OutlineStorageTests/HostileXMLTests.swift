import Foundation
import OutlineEngine
import OutlineTestSupport
import Testing

@testable import OutlineStorage

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile XML against every XML reader: the XML store reader, the model reader and the OPML
/// reader. Each input is refused with a ``StorageError`` or read harmlessly, quickly; no file
/// named by the input leaks into the result or the message, and no network connection is made
/// (a local listener stands in for the network and counts connections).
///
/// The inputs are generated (they name a temporary secret file and the listener's port); the
/// committed fixtures `Fixtures/XML/Hostile*.xml` and `Fixtures/OPML/External*.opml` pin the
/// full messages of the same kinds of input elsewhere.
@Suite struct HostileXMLTests {
    /// Which reader, and how it wraps a payload into a document of its kind.
    enum Reader: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case store, model, opml
        var testDescription: String { rawValue }

        /// A document of this reader's kind with `doctype` after the prolog, `text` where the
        /// reader keeps element text and `attribute` in an attribute value it keeps.
        func document(doctype: String, text: String = "plain", attribute: String = "plain", nested: String = "") -> String {
            switch self {
            case .store:
                """
                <?xml version="1.0" standalone="yes"?>
                \(doctype)
                <database><databaseInfo><version>134481920</version><UUID>343C8D7F-A000-42C4-8463-43FA1E5EF3FB</UUID>\
                <nextObjectID>103</nextObjectID><metadata></metadata></databaseInfo>
                <object type="NOTE" id="z102" extra="\(attribute)"><attribute name="text" type="string">\(text)</attribute></object>\(nested)
                </database>
                """
            case .model:
                """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                \(doctype)
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" representedClassName="\(attribute)"><attribute name="text" optional="YES" attributeType="String"/>\
                <userInfo><entry key="k" value="\(attribute)"/></userInfo>\(text)</entity>\(nested)
                </model>
                """
            case .opml:
                """
                <?xml version="1.0" encoding="UTF-8"?>
                \(doctype)
                <opml version="2.0"><head><title>\(text)</title></head>
                <body><outline text="\(attribute)"/>\(nested)</body>
                </opml>
                """
            }
        }

        /// Reads `data`; returns what was read and a way to dump all of it as text.
        func read(_ data: Data, file: String) throws -> () -> String {
            switch self {
            case .store:
                _ = try XMLStore.readMetadata(data, file: file)
                let (graph, metadata) = try XMLStore.read(data, schema: nil, file: file)
                return { snapshot(graph).joined(separator: "\n") + "\(metadata)" }
            case .model:
                let bundle = try ModelReader.read(path: file, in: [file: data])
                return { String(reflecting: bundle) }
            case .opml:
                let opml = try OPMLReader.read(data, file: file)
                return { String(reflecting: opml) }
            }
        }

        /// A nest of `depth` elements the reader walks through (or refuses).
        func nesting(_ depth: Int) -> String {
            let (open, close) =
                switch self {
                case .store: ("<object type=\"NOTE\" id=\"z9\">", "</object>")
                case .model: ("<elements>", "</elements>")
                case .opml: ("<outline text=\"n\">", "</outline>")
                }
            return String(repeating: open, count: depth) + String(repeating: close, count: depth)
        }
    }

    /// One hostile input, made for a reader, with what may come of it.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let make: @Sendable (Reader, Environment) -> String
        /// Seconds a debug build may take.
        var seconds = 2
    }

    /// The secret file, the DTD that declares an entity holding the secret, and the listener.
    struct Environment: Sendable {
        let secretPath: String
        let secret: String
        let dtdPath: String
        let port: UInt16
        var url: String { "http://127.0.0.1:\(port)" }
    }

    static let laughs =
        ["<!ENTITY lol0 \"lol\">"]
        + (1 ... 9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }

    static let cases: [Hostile] = [
        Hostile(testDescription: "external entity naming a local file") { reader, env in
            reader.document(doctype: "<!DOCTYPE root [<!ENTITY secret SYSTEM \"file://\(env.secretPath)\">]>", text: "&secret;")
        },
        Hostile(testDescription: "external entity naming /etc/passwd, used in an attribute") { reader, _ in
            reader.document(doctype: "<!DOCTYPE root [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>", attribute: "&xxe;")
        },
        Hostile(testDescription: "external entity naming /etc/passwd, used in text") { reader, _ in
            reader.document(doctype: "<!DOCTYPE root [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>", text: "&xxe;")
        },
        Hostile(testDescription: "billion laughs") { reader, _ in
            reader.document(doctype: "<!DOCTYPE root [\n" + laughs.joined(separator: "\n") + "\n]>", text: "&lol9;", attribute: "&lol9;")
        },
        Hostile(testDescription: "quadratic blowup") { reader, _ in
            let refs = String(repeating: "&a;", count: 50_000)
            return reader.document(
                doctype: "<!DOCTYPE root [<!ENTITY a \"\(String(repeating: "a", count: 50_000))\">]>",
                text: refs, attribute: refs)
        },
        Hostile(testDescription: "external DTD on disk declaring the entity used") { reader, env in
            reader.document(doctype: "<!DOCTYPE root SYSTEM \"file://\(env.dtdPath)\">", text: "&secret;")
        },
        Hostile(testDescription: "external DTD on the network") { reader, env in
            reader.document(doctype: "<!DOCTYPE root SYSTEM \"\(env.url)/root.dtd\">")
        },
        Hostile(testDescription: "external DTD on the network with a public id") { reader, env in
            reader.document(doctype: "<!DOCTYPE root PUBLIC \"-//Evil//DTD//EN\" \"\(env.url)/public.dtd\">", text: "&secret;")
        },
        Hostile(testDescription: "external entity on the network") { reader, env in
            reader.document(doctype: "<!DOCTYPE root [<!ENTITY remote SYSTEM \"\(env.url)/entity\">]>", text: "&remote;")
        },
        Hostile(testDescription: "parameter entity on the network") { reader, env in
            reader.document(doctype: "<!DOCTYPE root [<!ENTITY % remote SYSTEM \"\(env.url)/remote.dtd\"> %remote;]>")
        },
        Hostile(testDescription: "XInclude of a local file") { reader, env in
            reader.document(
                doctype: "", text: "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"file://\(env.secretPath)\" parse=\"text\"/>")
        },
        Hostile(
            testDescription: "100,000-deep nesting",
            make: { reader, _ in
                reader.document(doctype: "", nested: reader.nesting(100_000))
            }, seconds: 10),
        Hostile(
            testDescription: "100 MB attribute value",
            make: { reader, _ in
                reader.document(doctype: "", attribute: String(repeating: "A", count: 100_000_000))
            }, seconds: 20),
    ]

    @Test(arguments: Reader.allCases, cases)
    func hostileInputIsRefusedOrHarmless(_ reader: Reader, _ hostile: Hostile) throws {
        let folder = try TemporaryFolder.make("outline-hostile")
        defer { TemporaryFolder.remove(folder) }
        let secret = "SECRET-\(UUID().uuidString)"
        let secretPath = folder.appending(path: "secret.txt").path
        let dtdPath = folder.appending(path: "secret.dtd").path
        try Data(secret.utf8).write(to: URL(fileURLWithPath: secretPath))
        try Data("<!ENTITY secret \"\(secret)\">\n".utf8).write(to: URL(fileURLWithPath: dtdPath))
        let trap = try NetworkTrap()
        let env = Environment(secretPath: secretPath, secret: secret, dtdPath: dtdPath, port: trap.port)
        let data = Data(hostile.make(reader, env).utf8)
        let file = reader == .model ? "contents" : "hostile.\(reader == .opml ? "opml" : "xml")"

        let start = ContinuousClock.now
        var elapsed = Duration.zero
        let outcome: String
        do {
            let read = try reader.read(data, file: file)
            elapsed = ContinuousClock.now - start
            let dump = read()
            #expect(!dump.contains(secret), "the secret leaked into what was read")
            #expect(!dump.contains("root:x:0:0"), "/etc/passwd leaked into what was read")
            outcome = "read (\(dump.count) characters)"
        } catch let error as StorageError {
            #expect(error.description.hasPrefix(file + ": "), "\(error)")
            #expect(!error.description.contains(secret) && !error.description.contains("root:x:0:0"), "\(error)")
            #expect(error.description.count < 2_000, "the message is too long to be clear: \(error.description.prefix(300))")
            elapsed = ContinuousClock.now - start
            outcome = "\(error.code): \(error.description)"
        }
        #expect(elapsed < .seconds(hostile.seconds), "took \(elapsed)")
        #expect(trap.connections() == 0, "the reader connected to the network")
        print("hostile \(reader) / \(hostile.testDescription) (\(data.count) bytes, \(elapsed)): \(outcome.prefix(400))")
        if let expected = Self.expected[reader]?[hostile.testDescription] {
            #expect(outcome.hasPrefix(expected), "\(outcome)")
        }
    }

    /// What each reader does with each input, where it is not the same for all (`code: ` and
    /// the start of the message, or `read`).
    static let expected: [Reader: [String: String]] = [:]

    /// The committed fixtures, with the network address pointed at a listener.
    @Test(arguments: [
        (
            Reader.store, "XML/HostileNetworkDTD.xml",
            "HostileNetworkDTD.xml: line 12: the XML is not well-formed (Entity 'remote' not defined). The file is damaged; restore it from a backup if there is one."
        ),
        (
            Reader.opml, "OPML/NetworkEntity.opml",
            "NetworkEntity.opml: line 9: the file uses the entity &remote; declared in its DOCTYPE, and entities are not expanded, "
                + "for safety. Replace each &remote; with the text it stands for."
        ),
        (
            Reader.model, "Models/ExternalEntity.xcdatamodel/contents",
            "contents: line 3: the DOCTYPE declares the entity \"xxe\"; Xcode models declare none, and this reader never expands "
                + "entities or loads DTDs. The file was not written by Xcode; do not open it unless you know where it comes from."
        ),
    ])
    func committedHostileFixtureIsHandled(_ reader: Reader, _ fixture: String, _ expected: String) throws {
        let trap = try NetworkTrap()
        let text = String(decoding: try Data(contentsOf: Fixtures.folder.appending(path: fixture)), as: UTF8.self)
            .replacingOccurrences(of: "127.0.0.1:9/", with: "127.0.0.1:\(trap.port)/")
        let file = (fixture as NSString).lastPathComponent
        let outcome: String
        do {
            let dump = try reader.read(Data(text.utf8), file: file)()
            #expect(!dump.contains("root:x:0:0"))
            outcome = "read"
        } catch let error as StorageError {
            outcome = error.description
        }
        #expect(trap.connections() == 0)
        #expect(outcome == expected)
    }

    @Test func theNetworkTrapSeesAConnection() throws {
        let trap = try NetworkTrap()
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = NetworkTrap.loopback(port: trap.port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        #expect(trap.connections() == 1)
    }
}

/// A TCP listener on 127.0.0.1 that never answers: it only counts the connections made to it.
final class NetworkTrap {
    let port: UInt16
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw CocoaError(.fileReadUnknown) }
        var address = NetworkTrap.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw CocoaError(.fileReadUnknown)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// The connections made since the last call (the kernel completes them without `accept`).
    func connections() -> Int {
        var count = 0
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return count }
            close(connection)
            count += 1
        }
    }
}
