/// Keeping an ``OPMLHead`` in a document's metadata, so that a later OPML export writes the
/// same head: one custom metadata key holding a property list.
///
/// Layout (arrays keep the order, which dictionaries written by Core Data would not):
///
///     dictionary
///       version    string (absent when the file had none)
///       attributes array of [name, value] string pairs
///       fields     array of [name, value, attribute name, attribute value, ...] string arrays
extension OPMLHead {
    /// The custom metadata key under which documents keep their OPML head.
    public static let metadataKey = "OPMLHead"

    /// The head as a property list (see the extension's documentation).
    public var propertyListValue: PropertyListValue {
        var entries: [(key: String, value: PropertyListValue)] = []
        if let version { entries.append(("version", .string(version))) }
        entries.append(("attributes", .array(attributes.map { .array([.string($0.name), .string($0.value)]) })))
        entries.append(
            (
                "fields",
                .array(
                    fields.map { field in
                        .array(
                            [.string(field.name), .string(field.value)]
                                + field.attributes.flatMap { [PropertyListValue.string($0.name), .string($0.value)] })
                    })
            ))
        return .dictionary(entries)
    }

    /// Reads a head from its property list.
    ///
    /// - Throws: ``StorageError`` `corrupt` when the value does not have the layout above.
    public init(propertyListValue value: PropertyListValue) throws {
        func corrupt(_ what: String) -> StorageError {
            StorageError(
                .corrupt, at: "metadata \(OPMLHead.metadataKey)", "the stored OPML head is damaged (\(what))",
                hint: "Remove the \(OPMLHead.metadataKey) metadata key; OPML exports then write a new head.")
        }
        func strings(_ value: PropertyListValue, _ what: String) throws -> [String] {
            guard case .array(let items) = value else { throw corrupt("\(what) is not an array") }
            return try items.map {
                guard case .string(let text) = $0 else { throw corrupt("\(what) holds something other than strings") }
                return text
            }
        }
        guard case .dictionary(let entries) = value else { throw corrupt("not a dictionary") }
        self.init()
        for (key, entry) in entries {
            switch key {
            case "version":
                guard case .string(let text) = entry else { throw corrupt("version is not a string") }
                version = text
            case "attributes":
                guard case .array(let pairs) = entry else { throw corrupt("attributes is not an array") }
                attributes = try pairs.map {
                    let pair = try strings($0, "an attribute")
                    guard pair.count == 2 else { throw corrupt("an attribute is not a name and a value") }
                    return OPMLAttribute(pair[0], pair[1])
                }
            case "fields":
                guard case .array(let list) = entry else { throw corrupt("fields is not an array") }
                fields = try list.map {
                    let parts = try strings($0, "a field")
                    guard parts.count >= 2, parts.count % 2 == 0 else { throw corrupt("a field is not a name, a value and attribute pairs") }
                    let attributes = stride(from: 2, to: parts.count, by: 2).map { OPMLAttribute(parts[$0], parts[$0 + 1]) }
                    return OPMLHeadField(parts[0], parts[1], attributes: attributes)
                }
            default:
                throw corrupt("unknown key \"\(key)\"")
            }
        }
    }
}
