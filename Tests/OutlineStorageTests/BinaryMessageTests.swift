import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Messages of the binary reader that issue 21 found confusing, pinned in full.
@Suite struct BinaryMessageTests {
    /// A relationship column naming target entity 1 of a one-entity directory said "names body
    /// entity 1, but the body has 1".
    @Test func aTargetEntityPastTheDirectoryIsNamedWithTheDirectorysSize() throws {
        let small = [UInt8](try Data(contentsOf: Fixtures.folder.appending(path: "Binary/small-outline.outline")))
        var found = false
        let damaged = try BinaryCrafting.rewritingBody(small) { body in
            // "children" (length 8), kind 1 (to-many), 1 target entity, entity 0.
            let column: [UInt8] = [8] + Array("children".utf8) + [1, 1, 0]
            guard let start = (0 ... body.count - column.count).first(where: { body[$0 ..< $0 + column.count].elementsEqual(column) }) else { return }
            body[start + column.count - 1] = 1
            found = true
        }
        #expect(found)
        let error = #expect(throws: StorageError.self) { try BinaryStore.read(damaged, schema: nil, file: "t.outline") }
        #expect(error?.message == "relationship Item.children names entity number 1 of the body's directory, which lists only 1 (numbered from 0)")
    }
}
