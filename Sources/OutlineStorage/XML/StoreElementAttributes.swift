/// The attributes of one element of a store that the reader looks at, found in one pass over
/// libxml2's array: names compared by address first (see ``SAXDictionary``), by bytes only
/// when the address is not one of the known names.
struct StoreElementAttributes {
    /// The dictionary's copies of the attribute names a store uses.
    struct Names {
        var type: UnsafePointer<UInt8>?
        var id: UnsafePointer<UInt8>?
        var name: UnsafePointer<UInt8>?
        var idrefs: UnsafePointer<UInt8>?
        /// Read by no one, but on every `<relationship>`: known by address, it skips the
        /// comparison by bytes.
        var destination: UnsafePointer<UInt8>?

        init() {}

        init(_ dictionary: SAXDictionary) {
            type = dictionary.interned("type")
            id = dictionary.interned("id")
            name = dictionary.interned("name")
            idrefs = dictionary.interned("idrefs")
            destination = dictionary.interned("destination")
        }
    }

    var type: UnsafeBufferPointer<UInt8>?
    var id: UnsafeBufferPointer<UInt8>?
    var name: UnsafeBufferPointer<UInt8>?
    var idrefs: UnsafeBufferPointer<UInt8>?
    /// The name and length of the first attribute other than `idrefs` longer than the limit.
    private(set) var tooLongName: SAXName?
    private(set) var tooLongLength = 0

    /// Reads `attributes`; the first of several attributes of one name counts, as everywhere.
    /// - Parameter limit: the longest value accepted, in bytes, for attributes other than `idrefs`.
    init(_ attributes: SAXAttributes, names: Names, limit: Int) {
        guard let base = attributes.base else { return }
        // Found so far, in locals (registers rather than the optionals of the result): where a
        // value starts (nil: not seen) and its length.
        var typeStart: UnsafePointer<UInt8>?
        var typeCount = 0
        var idStart: UnsafePointer<UInt8>?
        var idCount = 0
        var nameStart: UnsafePointer<UInt8>?
        var nameCount = 0
        var idrefsStart: UnsafePointer<UInt8>?
        var idrefsCount = 0
        var longName: UnsafePointer<UInt8>?
        var longCount = 0
        // Five pointers per attribute, walked by pointer: no index arithmetic to check.
        var entry = base
        let entriesEnd = base + 5 * attributes.count
        while entry < entriesEnd {
            let local = entry[0]
            let start = entry[3]
            let end = entry[4]
            entry += 5
            guard let local, let start, let end else { continue }
            let count = end - start
            let slot: Slot
            if local == names.type {
                slot = .type
            } else if local == names.name {
                slot = .name
            } else if local == names.id {
                slot = .id
            } else if local == names.idrefs {
                slot = .idrefs
            } else if local == names.destination {
                slot = .other
            } else {
                slot = Self.slot(spelled: SAXName(pointer: local))
            }
            switch slot {
            case .type where typeStart == nil: (typeStart, typeCount) = (start, count)
            case .id where idStart == nil: (idStart, idCount) = (start, count)
            case .name where nameStart == nil: (nameStart, nameCount) = (start, count)
            case .idrefs:
                if idrefsStart == nil { (idrefsStart, idrefsCount) = (start, count) }
                continue
            default: break
            }
            if count > limit && longName == nil { (longName, longCount) = (local, count) }
        }
        type = typeStart.map { UnsafeBufferPointer(start: $0, count: typeCount) }
        id = idStart.map { UnsafeBufferPointer(start: $0, count: idCount) }
        name = nameStart.map { UnsafeBufferPointer(start: $0, count: nameCount) }
        idrefs = idrefsStart.map { UnsafeBufferPointer(start: $0, count: idrefsCount) }
        tooLongName = longName.map(SAXName.init(pointer:))
        tooLongLength = longCount
    }

    private enum Slot {
        case type, id, name, idrefs, other
    }

    /// The slot of a name whose address is none of the dictionary's copies, by its bytes.
    private static func slot(spelled name: SAXName) -> Slot {
        if name.is("type") { return .type }
        if name.is("id") { return .id }
        if name.is("name") { return .name }
        if name.is("idrefs") { return .idrefs }
        return .other
    }
}
