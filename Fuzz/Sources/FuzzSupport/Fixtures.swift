import Foundation
import OutlineEngine
import OutlineStorage

/// Models of the repository's `Fixtures/` that harnesses read with, found from this file's path.
public enum FuzzFixtures {
    /// The repository's `Fixtures/` folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The nested-list model (`Item` with `title`, `children`, `parent`) most fixtures use.
    public static let nestedList: Schema = {
        do {
            return try ModelReader.read(at: root.appendingPathComponent("Models/NestedTodoList.xcdatamodeld")).current
        } catch {
            fatalError("cannot read the nested-list model from \(root.path): \(error)")
        }
    }()
}
