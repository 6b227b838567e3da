/// One measured operation at one size: the library's median, what it is compared with (a floor
/// and peers), and how it grew from the smaller size. Memory records hold MiB instead of ms.
struct Record: Sendable {
    /// A peer's figure for the same work on the same tree.
    struct Peer: Sendable {
        var name: String
        var milliseconds: Double

        /// How many times faster the library is than this peer (peer / library).
        func speedup(over median: Double) -> Double { milliseconds / median }
    }

    enum Unit: String, Sendable {
        case milliseconds = "ms"
        case mebibytes = "MiB"
    }

    /// `binary.open`, `memory.open-binary`, ...
    var operation: String
    var items: Int
    var unit: Unit = .milliseconds
    /// Every counted run (ms), or every probe (MiB).
    var runs: [Double]
    /// What the floor is made of, when there is one (see ``Floors``).
    var floorName: String?
    var floorMilliseconds: Double?
    var peers: [Peer] = []
    /// This figure over the same operation's figure at the smaller size (larger size only).
    var growth: Double?
    /// For memory: the child's peak before opening, in MiB.
    var baselineMiB: Double?
    /// Whether the report gives `p99_ms` (runs that are single keystrokes).
    var reportsPercentile99 = false

    var median: Double { Sample(runs: runs).median }

    var ratioToFloor: Double? { floorMilliseconds.map { median / $0 } }

    /// Whether this is a phase of a store operation (evidence, not a goal).
    var isPhase: Bool { operation.hasPrefix("phase.") }
}

/// What each floor is made of, named in the table and the JSON.
enum Floors {
    static let binaryOpen = "read file + single-thread zlib inflate of every chunk"
    static let binarySave = "single-thread zlib deflate of the same body at the same level + atomic write"
    static let xmlOpen = "libxml2 SAX2 pass over the same file (read + parse, counting callbacks)"
    static let xmlSave = "atomic write of the same XML bytes (temp, write, fsync, rename, fsync dir)"
    static let xmlEncode = "the same XML bytes formatted into memory by a minimal loop over plain arrays of the values"
    static let binaryToXML = "binary.open floor + xml.save floor"
    static let xmlToBinary = "xml.open floor + binary.save floor"
    static let migrate = "read + inflate of the v1 file + binary.save floor"
    static let tuiOpen = "binary.open of the library (the editor opens through the document stack, then draws)"
    static let edit = "one binary.open + one binary.save of the library (not a floor: shows edits add no quadratic work)"
}
