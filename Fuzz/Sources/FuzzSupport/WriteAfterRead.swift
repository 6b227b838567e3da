import Foundation
import OutlineEngine
import OutlineStorage

/// What every harness checks of a document that loaded: saved in every format (binary and
/// XML, as `PersistentStore` saves), it reads back, with the schema it was read with and with
/// the one the saved file embeds; then again after one new object is added (a document at the
/// last object id once became unreadable that way). A save may refuse with `limitExceeded`
/// (the limits every reader keeps, checked before writing), and adding may refuse with an
/// `EngineError`; writing a file that does not read back is a finding, and so is an undo history
/// taken over (`restoreHistory()`) that is not taken over from what is written.
public enum WriteAfterRead {
    /// Saves `store` in both formats and reads each back (then again after one insert); a
    /// failure stops the process with a message naming `what`, which libFuzzer reports.
    public static func check(_ store: PersistentStore, _ what: String) {
        saveAndReadBack(store, what)
        guard let entity = store.schema.entityIndices.first(where: { !store.schema.entities[$0.rawValue].isAbstract }),
            (try? store.context.insert(entity: entity)) != nil
        else { return }
        saveAndReadBack(store, what + " with one more object")
    }

    private static func saveAndReadBack(_ store: PersistentStore, _ what: String) {
        for format in [DocumentFormat.binary, .xml] {
            let bytes: [UInt8]
            do {
                bytes = try store.encoded(as: format)
            } catch let error as StorageError where error.code == .limitExceeded {
                continue
            } catch {
                fatalError("\(what): a document that loads cannot be written as \(format): \(error)")
            }
            for schema in [store.schema, nil] {
                do {
                    let again = try PersistentStore.load(bytes, schema: schema, name: "rewritten")
                    guard again.context.graph.objectCount == store.context.graph.objectCount else {
                        fatalError(
                            "\(what): written as \(format), it reads back with \(again.context.graph.objectCount) objects, not \(store.context.graph.objectCount)"
                        )
                    }
                    if store.historyStatus == .restored, again.restoreHistory() != .restored {
                        fatalError("\(what): its undo history was taken over, but not once written as \(format): \(again.historyStatus)")
                    }
                } catch {
                    fatalError(
                        "\(what): a document that loads does not read back once written as \(format)\(schema == nil ? " (embedded model)" : ""): \(error)"
                    )
                }
            }
        }
    }
}
