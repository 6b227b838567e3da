/// The file formats a document can be stored in.
public enum DocumentFormat: String, Sendable, Hashable, CaseIterable {
    /// Core Data's XML store layout (`NSXMLStoreType`).
    case xml
    /// Outline's own zlib-compressed, checksummed binary format (see `Docs/BinaryFormat.md`).
    case binary
}
