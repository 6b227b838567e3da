import OutlineEngine
import OutlineStorage

/// Counts items whose kept OPML attributes an export cannot write.
struct KeptAttributeTally {
    private(set) var items = 0
    private var names: [String] = []

    mutating func count(_ item: ManagedObject, in document: OutlineDocument) {
        guard let attribute = document.shape.extraAttributes,
            let data = document.context.attributeValue(of: item, attribute)?.binaryValue,
            let extra = try? ExtraAttributes(decoding: data), !extra.kept.isEmpty
        else { return }
        items += 1
        for kept in extra.kept where names.count < 5 && !names.contains(kept.name) { names.append(kept.name) }
    }

    func warning(file: String?, format: String) -> InterchangeWarning? {
        guard items > 0 else { return nil }
        return InterchangeWarning(
            file: file, at: nil,
            "\(items) \(items == 1 ? "item has" : "items have") OPML attributes (\(names.joined(separator: ", "))) that \(format) cannot hold; they are not written",
            hint: "Export OPML to keep them.")
    }
}
