import OutlineEngine
import OutlineKit

/// Where a long conversion or migration is, for a progress display.
public enum WorkProgress: Sendable {
    /// Reading (and checking) the file at this path.
    case reading(String)
    /// Migrating the objects to another model version.
    case migrating(MigrationProgress)
    /// Writing the file at this path.
    case writing(String)
}
