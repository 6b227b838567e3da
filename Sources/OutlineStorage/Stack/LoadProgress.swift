import OutlineEngine

/// How far opening a document is: the phase, and how much of it is done.
///
/// A ``DocumentContainer`` reports it while it opens a document off the caller's actor; the
/// phases come in this order, each from 0 to 1 (migration only for documents of an older
/// model version).
public struct LoadProgress: Sendable, Equatable, CustomStringConvertible {
    /// What opening is doing.
    public enum Phase: String, Sendable, Hashable {
        /// Reading the file from disk.
        case reading
        /// Decoding the objects (inflating and decoding a binary document, parsing an XML one).
        case decoding
        /// Checking relationships and their inverses.
        case checking
        /// Migrating the objects to the current model version.
        case migrating
    }

    /// The phase.
    public var phase: Phase
    /// How much of the phase is done, from 0 to 1.
    public var fraction: Double
    /// While migrating: the migration's own progress.
    public var migration: MigrationProgress?

    /// Progress in `phase`, `fraction` of the way through the whole open (clamped to 0...1).
    public init(phase: Phase, fraction: Double, migration: MigrationProgress? = nil) {
        self.phase = phase
        self.fraction = min(max(fraction, 0), 1)
        self.migration = migration
    }

    /// The progress of a migration as a whole: its steps in turn, each of four phases.
    public init(migration: MigrationProgress) {
        let phases: [MigrationProgress.Phase] = [.copyingObjects, .convertingValues, .linkingObjects, .checking]
        let phase = Double(phases.firstIndex(of: migration.phase) ?? 0)
        let within = migration.total > 0 ? Double(migration.completed) / Double(migration.total) : 1
        let step = Double(max(migration.step, 1) - 1) + (phase + within) / 4
        self.init(phase: .migrating, fraction: step / Double(max(migration.steps, 1)), migration: migration)
    }

    /// The phase and the whole percent done, as in `reading 42%`.
    public var description: String { "\(phase.rawValue) \(Int((fraction * 100).rounded(.down)))%" }
}
