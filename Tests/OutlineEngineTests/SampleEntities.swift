import Foundation
import OutlineEngine

/// Entities shared by the engine tests.
enum SampleEntities {
    /// The nested-list example model of the notes' golden vector (objcio issue 4).
    static var nestedListItem: Entity {
        Entity(
            name: "Item",
            attributes: [
                Attribute(name: "order", type: .integer64, isOptional: false, defaultValue: .integer(0)),
                Attribute(name: "title", type: .string),
            ],
            relationships: [
                Relationship(
                    name: "children", destination: "Item", inverse: "parent", isToMany: true,
                    deleteRule: .cascade),
                Relationship(name: "parent", destination: "Item", inverse: "children", minCount: 1, maxCount: 1),
            ],
            className: "Item")
    }
}

extension Data {
    /// Lower-case hexadecimal, two digits per byte.
    var hex: String { map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
