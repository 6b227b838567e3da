/// Errors that more than one part of the XML store reader raises, worded once.
enum XMLStoreErrors {
    static func invalidObjectID(_ id: UnsafeBufferPointer<UInt8>, file: String, line: Int) -> StorageError {
        StorageError(
            .corrupt, file: file, at: "line \(line)",
            "the object id \(XMLValueParsing.quoted(id)) is not of the form zN",
            hint: "Core Data writes ids such as z102; the file is damaged.")
    }

    /// `what` is the start of the message, such as `the object id z5 is over`.
    static func idOverLimit(_ what: String, file: String, line: Int) -> StorageError {
        StorageError(
            .limitExceeded, file: file, at: "line \(line)",
            "\(what) the largest object id a document may hold (z\(StoreLimits.maximumObjectID))",
            hint: "Core Data numbers its objects from z102 up; the file was not written by Core Data or was edited.")
    }

    static func duplicateID(_ id: UInt64, file: String, line: Int) -> StorageError {
        StorageError(
            .corrupt, file: file, at: "line \(line)", "two objects have the id z\(id)",
            hint: "Object ids are unique in a store; the file is damaged.")
    }

    static func invalidReference(
        _ word: UnsafeBufferPointer<UInt8>, owner: UInt64, property: String,
        file: String, line: Int
    ) -> StorageError {
        StorageError(
            .corrupt, file: file, at: "line \(line)",
            "z\(owner) \(property) refers to \(XMLValueParsing.quoted(word)), which is not an object id",
            hint: "Core Data writes ids such as z102; the file is damaged.")
    }
}
