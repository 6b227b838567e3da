extension StorageError.Code {
    /// XML constructs refused for safety: DTD declarations such as entities (billion laughs,
    /// external entities). Core Data stores never contain them.
    public static let unsafeXML = StorageError.Code(rawValue: "unsafeXML")
}
