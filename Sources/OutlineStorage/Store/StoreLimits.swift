import Foundation
import OutlineEngine

/// The one set of limits every reader and writer of stored documents consults, binary and
/// XML alike (`Docs/Limits.md` lists them with their reasons).
///
/// Two kinds of limits live here:
/// - **Format limits** (the static members): what a document may hold at all. Both readers
///   refuse a file that breaks one, and every save checks the graph and metadata against them
///   (``check(_:metadata:file:)-(GraphSnapshot,_,_)``) before a byte is written, so that whatever one reader
///   accepts can be saved in every format and read back: an id over ``maximumObjectID``, a
///   date that is not a finite time between years 0 and 9999, custom metadata nested deeper
///   than ``maximumMetadataDepth`` or with a key twice in one dictionary never reach a file.
/// - **Resource limits** (the instance properties): how much work and memory reading may
///   take. They bound what a small hostile file can make the reader allocate; a caller may
///   raise them to open an unusually large document.
public struct StoreLimits: Sendable, Hashable {
    // MARK: Format limits

    /// The largest object id number (`zN`) a document may hold: 2^62, so that the next id
    /// always fits and sums of ids cannot overflow. New objects are refused beyond it.
    public static let maximumObjectID: UInt64 = ObjectID.maximum
    /// The largest next object id a document may declare (one past ``maximumObjectID``).
    /// An XML store writes the last id handed out, so its `nextObjectID` is at most ``maximumObjectID``.
    public static let maximumNextObjectID: UInt64 = ObjectID.maximum + 1
    /// The most objects one entity may have (the engine keeps rows and string lengths in 32 bits).
    public static let maximumObjectsPerEntity = Int(Int32.max)
    /// The most objects one to-many relationship of one object may list: an XML store writes
    /// them as one `idrefs` attribute, which libxml2 reads up to 1,000,000,000 bytes, and an
    /// id takes at most 21 of them.
    public static let maximumRelationshipMembers = 40_000_000
    /// The longest string, URI or binary value of one attribute, in bytes: 256 MiB.
    public static let maximumValueBytes = 256 << 20
    /// The most levels custom metadata values nest: a value at the top of a key is level 1,
    /// the members of an array or dictionary one level deeper than it.
    public static let maximumMetadataDepth = 32
    /// The most custom metadata keys a document may have.
    public static let maximumMetadataKeys = 1 << 20
    /// The most bytes custom metadata may take, counted as the binary format writes it. The
    /// binary header holds it, so it must stay well under ``maximumHeaderSize``.
    public static let maximumMetadataBytes = 64 << 20
    /// The longest embedded model (its Xcode `contents` XML), in bytes: 64 MiB. With the
    /// custom metadata it must fit a binary header (``maximumHeaderSize``).
    public static let maximumModelBytes = 64 << 20
    /// The earliest date a document may hold: 0000-01-01T00:00:00Z (proleptic Gregorian), in
    /// seconds since 2001-01-01. It admits Foundation's `Date.distantPast` (0000-12-30).
    public static let earliestDate: TimeInterval = -63_145_526_400
    /// The first moment a document may no longer hold: 10000-01-01T00:00:00Z, in seconds since
    /// 2001-01-01. Every date before it has a four-digit year.
    public static let endOfDates: TimeInterval = 252_423_993_600

    /// Whether `seconds` (since 2001-01-01) is a date a document may hold: finite, and in the
    /// years 0 to 9999, which every date format the library writes can spell.
    public static func isStorableDate(_ seconds: TimeInterval) -> Bool {
        seconds.isFinite && seconds >= earliestDate && seconds < endOfDates
    }

    // MARK: Resource limits

    /// The largest inflated body of a binary document accepted, in bytes (default 8 GiB).
    public var maximumBodySize: Int
    /// The largest header of a binary document accepted, in bytes (default 256 MiB).
    public var maximumHeaderSize: Int
    /// The largest file read into memory, in bytes (default 16 GiB).
    public var maximumFileSize: Int
    /// How many times its compressed size a binary document's body may inflate to (default
    /// 256; bodies up to ``inflateAllowance`` bytes may always inflate). zlib reaches about
    /// 1032:1 on runs of one byte, so without this a 3 MB file could make the reader fill 3 GB.
    public var maximumInflateRatio: Int
    /// How many objects a binary document may declare per byte of its compressed body
    /// (default 64; up to ``objectAllowance`` objects are always allowed), checked before
    /// anything is inflated or allocated: each object costs the engine tens of bytes, so a
    /// 100 KB file declaring 10^8 objects would otherwise take gigabytes.
    public var maximumObjectsPerStoredByte: Int

    /// Bodies up to this many bytes may inflate at any ratio: 16 MiB.
    public static let inflateAllowance = 16 << 20
    /// Documents of up to this many objects may hold them in any compressed size: 1,048,576.
    public static let objectAllowance = 1 << 20
    /// The default inflate ratio; writers keep every document within it.
    public static let defaultInflateRatio = 256
    /// The default objects per compressed byte; writers keep every document within it.
    public static let defaultObjectsPerStoredByte = 64

    /// Limits with the given values; the defaults are ``default``.
    public init(
        maximumBodySize: Int = 8 << 30, maximumHeaderSize: Int = 256 << 20, maximumFileSize: Int = 16 << 30,
        maximumInflateRatio: Int = defaultInflateRatio, maximumObjectsPerStoredByte: Int = defaultObjectsPerStoredByte
    ) {
        self.maximumBodySize = maximumBodySize
        self.maximumHeaderSize = maximumHeaderSize
        self.maximumFileSize = maximumFileSize
        self.maximumInflateRatio = maximumInflateRatio
        self.maximumObjectsPerStoredByte = maximumObjectsPerStoredByte
    }

    /// The defaults.
    public static let `default` = StoreLimits()

    /// The largest inflated body a binary document of `storedBytes` compressed bytes may have.
    public func maximumInflatedSize(storedBytes: Int) -> Int {
        max(Self.inflateAllowance, Self.saturatingProduct(storedBytes, maximumInflateRatio))
    }

    /// The most objects a binary document of `storedBytes` compressed bytes may declare.
    public func maximumObjects(storedBytes: Int) -> Int {
        max(Self.objectAllowance, Self.saturatingProduct(storedBytes, maximumObjectsPerStoredByte))
    }

    /// The fewest compressed bytes a body of `size` bytes holding `objects` objects needs to
    /// be within these limits (0 when any size will do): what writers make sure of.
    func minimumStoredSize(bodySize size: Int, objects: Int) -> Int {
        var needed = 0
        if size > Self.inflateAllowance { needed = max(needed, (size + maximumInflateRatio - 1) / max(maximumInflateRatio, 1)) }
        if objects > Self.objectAllowance {
            needed = max(needed, (objects + maximumObjectsPerStoredByte - 1) / max(maximumObjectsPerStoredByte, 1))
        }
        return needed
    }

    static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: max(b, 1))
        return overflow || product < 0 ? .max : product
    }
}
