/// What happens to the destination of a relationship when its source object is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Remove the deleted object from the inverse relationship of each destination.
    case nullify = "Nullify"
    /// Delete every destination object too.
    case cascade = "Cascade"
    /// Refuse to delete while the relationship has destinations.
    case deny = "Deny"
    /// Do nothing: destinations keep pointing at the deleted object until the caller fixes them.
    case noAction = "No Action"
}
