import ArgumentParser
import OutlineEngine
import OutlineKit
import OutlineTool

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrate a document to another version of its model.",
        discussion: """
            Migrates in place (atomically, keeping the old file as FILE.bak unless \
            --no-backup) or into --output. --dry-run prints the plan instead: the versions \
            passed through, every action per entity and property, every blocker, every risk \
            (a change that fails only for some data, with the objects that would fail) and \
            the data that would not fit, and writes nothing. A blocked migration exits with 1 \
            and leaves the file unchanged. Migrating to an older version that has no place \
            for some of the data (notes, done states and dates before Outline 2, tags and \
            folding before Outline 3) lists what would be lost and needs --allow-loss. The old \
            version is kept as FILE.bak, or FILE.1.bak, ... when that name is taken: a backup \
            is never replaced. A document of another app is read with its own model (derived \
            from the file when it has none): there is nothing to migrate.

            Examples:
              outline migrate old.outline
              outline migrate old.outline --dry-run
              outline migrate old.outline --output new.outline --to "Outline 2"
              outline migrate notes.outline --to Outline --allow-loss
              outline migrate library.xml --model Library.xcdatamodeld --dry-run --json
            """)

    @OptionGroup var document: DocumentArgument

    @Option(
        help: ArgumentHelp("Write the migrated document here and leave FILE unchanged.", valueName: "out"),
        completion: .file())
    var output: String?

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp("The version to migrate to, such as \"Outline 2\" (default: the model's current version).", valueName: "version"))
    var version: String?

    @Flag(help: "Print the plan and its blockers; write nothing.")
    var dryRun = false

    @Flag(help: "Do not keep the old version as FILE.bak.")
    var noBackup = false

    @Flag(help: "Allow a to-many relationship to become to-one; objects with more than one destination then stop the migration.")
    var allowToOne = false

    @Flag(help: "Migrate even when the target version has no place for some of the data, which is then lost.")
    var allowLoss = false

    @OptionGroup var printing: JSONOption
    @OptionGroup var model: ModelOption

    func validate() throws {
        if dryRun && (output != nil || noBackup) {
            throw ValidationError("--dry-run writes nothing; it cannot be combined with --output or --no-backup.")
        }
    }

    func run() throws {
        let bundle = try model.bundle()
        let options = MigrationOptions(allowsToManyToToOne: allowToOne)
        let progress = ProgressBar()
        defer { progress.finish() }
        if dryRun {
            let plan = try DocumentMigration.preview(
                path: document.file, model: bundle, targetName: version, options: options,
                progress: progress.handler)
            progress.finish()
            for note in plan.notes { Console.note(note) }
            try Console.output(printing.json ? plan.renderJSON() : plan.renderText())
            if let failure = plan.failure() { throw failure }
            return
        }
        let outcome = try DocumentMigration.migrate(
            path: document.file, model: bundle, targetName: version, output: output,
            keepsBackup: !noBackup, options: options, allowingLoss: allowLoss,
            lockTimeout: LockWait.seconds,
            progress: progress.handler)
        progress.finish()
        try Console.output(printing.json ? outcome.renderJSON() : outcome.renderText())
    }
}
