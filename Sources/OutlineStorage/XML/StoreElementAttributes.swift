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

        init() {}

        init(_ dictionary: SAXDictionary) {
            type = dictionary.interned("type")
            id = dictionary.interned("id")
            name = dictionary.interned("name")
            idrefs = dictionary.interned("idrefs")
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
        for i in 0 ..< attributes.count {
            guard let local = base[5 * i], let start = base[5 * i + 3], let end = base[5 * i + 4] else { continue }
            let value = UnsafeBufferPointer(start: start, count: end - start)
            let slot: Slot
            if local == names.type {
                slot = .type
            } else if local == names.name {
                slot = .name
            } else if local == names.id {
                slot = .id
            } else if local == names.idrefs {
                slot = .idrefs
            } else {
                slot = Self.slot(spelled: SAXName(pointer: local))
            }
            if slot != .idrefs && value.count > limit && tooLongName == nil {
                tooLongName = SAXName(pointer: local)
                tooLongLength = value.count
            }
            switch slot {
            case .type: if type == nil { type = value }
            case .id: if id == nil { id = value }
            case .name: if name == nil { name = value }
            case .idrefs: if idrefs == nil { idrefs = value }
            case .other: break
            }
        }
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
