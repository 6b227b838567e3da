import OutlineEngine
import OutlineKit
import OutlineStorage

/// A migration plan for people and scripts: the versions passed through, every action per
/// entity and property of each step, every blocker, and the data violations and effects found
/// by running the migration in memory. `outline migrate --dry-run` and `outline schema diff`
/// print it.
public struct MigrationPlanReport: Sendable {
    /// The document concerned (nil for a comparison of two model versions).
    public var file: String?
    /// The version the document (or mapping) starts from.
    public var source: String
    /// The version it ends in.
    public var target: String
    /// Whether the document already stores what the target stores (nothing to do).
    public var isCurrent: Bool
    /// The steps that would run, in order (empty when blocked or current).
    public var steps: [MigrationPlan]
    /// Everything that stops the migration on the direct way, when no way exists.
    public var blockers: [MigrationBlocker]
    /// What running the steps on the document's data did in memory (nil when not run).
    public var effects: MigrationReport?
    /// Changes that fail only for some data, from the steps that would run (from the direct
    /// mapping when blocked), apart from the blockers.
    public var risks: [MigrationRisk]
    /// When the document belongs to no version of the model and has its own model (embedded,
    /// or derived from its data): how that model is called. There is nothing to migrate then.
    public var ownModel: String?
    /// What the user should know about how the document was read, one `FILE: ...` line each.
    public var notes: [String] = []
    /// The document's data that the target version has no place for (nil when not looked at).
    public var loss: MigrationLoss?

    /// The data problems that stop the migration.
    public var violations: [DataViolation] { effects?.violations ?? [] }
    /// Whether the migration cannot be done (blockers, or data that does not fit).
    public var isBlocked: Bool { !blockers.isEmpty || !violations.isEmpty }
    /// The version names passed through, source first.
    public var path: [String] {
        steps.isEmpty ? [source, target] : [steps[0].source.name] + steps.map(\.destination.name)
    }

    /// The report of a document's route, with the effects of running it in memory.
    public init(file: String?, route: MigrationRoute, isCurrent: Bool, effects: MigrationReport?) {
        self.file = file
        source = route.direct.source.name
        target = route.direct.destination.name
        self.isCurrent = isCurrent
        steps = isCurrent ? [] : route.steps
        blockers = route.isPossible || isCurrent ? [] : route.direct.blockers
        self.effects = effects
        risks = isCurrent ? [] : route.isPossible ? route.steps.flatMap(\.risks) : route.direct.risks
    }

    /// The report for a document read with its own model (called `ownModel`): nothing to migrate.
    public init(file: String, ownModel: String) {
        self.file = file
        source = ownModel
        target = ownModel
        isCurrent = true
        steps = []
        blockers = []
        effects = nil
        risks = []
        self.ownModel = ownModel
    }

    /// The report of one inferred mapping between two model versions.
    public init(plan: MigrationPlan) {
        file = nil
        source = plan.source.name
        target = plan.destination.name
        isCurrent = false
        steps = [plan]
        blockers = plan.blockers
        effects = nil
        risks = plan.risks
    }

    /// The objects that would fail for `risk` when the document's data was run (nil without data):
    /// how many, and the first ones; `checked` is false when earlier problems kept the migration
    /// from checking it.
    public func failing(_ risk: MigrationRisk) -> (count: Int, objects: [ObjectID], checked: Bool)? {
        guard let effects else { return nil }
        let matching = effects.violations.filter { $0.entity == risk.entity && $0.property == risk.property }
        let checked = !matching.isEmpty || !effects.uncheckedRelationships.contains("\(risk.entity).\(risk.property)")
        return (matching.reduce(0) { $0 + $1.count }, Array(matching.flatMap(\.objects).prefix(5)), checked)
    }

    // MARK: Text

    /// The plan as indented text; every blocker and violation on its own line.
    public func renderText() -> String {
        if let ownModel, let file {
            return "Migration of \(file): its own model (\(ownModel))\n"
                + "Nothing to do: the document belongs to no version of this model, so there is no version to migrate it to.\n"
        }
        var out = file.map { "Migration of \($0): \(source) -> \(target)\n" } ?? "Mapping \(source) -> \(target)\n"
        if isCurrent {
            out += "Nothing to do: the document already stores what \(target) stores.\n"
            return out
        }
        if blockers.isEmpty {
            out += "Path: \(path.joined(separator: " -> ")) (\(steps.count) \(steps.count == 1 ? "step" : "steps"))\n"
        }
        for (index, plan) in steps.enumerated() {
            if steps.count > 1 || file != nil {
                out +=
                    "\nStep \(index + 1): \(plan.source.name) -> \(plan.destination.name)\(plan.isIdentity ? " (identity: objects copied as they are)" : "")\n"
            }
            out += Self.describe(plan, blockers: blockers)
        }
        if !blockers.isEmpty {
            out += "\nBlocked: \(blockers.count) \(blockers.count == 1 ? "blocker" : "blockers")\n"
            for blocker in blockers {
                out +=
                    "  - \(blocker.entity)\(blocker.property.map { ".\($0)" } ?? ""): \(blocker.from) -> \(blocker.to): \(blocker.reason). \(blocker.commandLineHint)\n"
            }
        }
        if !risks.isEmpty {
            out +=
                "\nRisks: \(risks.count) (\(blockers.isEmpty ? "the mapping can be inferred" : "besides the blockers"); "
                + "migrating a document fails only where its data is in the way, and leaves it unchanged)\n"
            for risk in risks { out += "  Risk: \(describe(risk))\n" }
        }
        if let effects {
            out += "\nData:\n"
            for (entity, count) in effects.copiedObjects.sorted(by: { $0.key < $1.key }) {
                out += "  \(entity): \(DocumentInfo.grouped(count)) \(count == 1 ? "object" : "objects") carried over\n"
            }
            for (entity, count) in effects.droppedObjects.sorted(by: { $0.key < $1.key }) where count > 0 {
                out += "  \(entity): \(DocumentInfo.grouped(count)) \(count == 1 ? "object" : "objects") dropped with the entity\n"
            }
            for (key, count) in effects.droppedValues.sorted(by: { $0.key < $1.key }) where count > 0 {
                out += "  \(key): \(DocumentInfo.grouped(count)) \(count == 1 ? "value" : "values") dropped with the attribute\n"
            }
            for (key, count) in effects.droppedLinks.sorted(by: { $0.key < $1.key }) where count > 0 {
                out += "  \(key): \(DocumentInfo.grouped(count)) \(count == 1 ? "link" : "links") dropped with the relationship\n"
            }
            for (key, count) in effects.defaultedValues.sorted(by: { $0.key < $1.key }) where count > 0 {
                out += "  \(key): \(DocumentInfo.grouped(count)) empty \(count == 1 ? "value gets" : "values get") the default\n"
            }
            if let loss, !loss.isEmpty {
                out += "\nLost (the target has no place for it; migrating needs --allow-loss):\n"
                for entry in loss.entries { out += "  \(entry)\n" }
            }
            if !violations.isEmpty {
                out += "\nData violations: \(violations.count)\n"
                for violation in violations { out += "  - \(violation)\n" }
                out += "  Fix the objects named above in the old version, then migrate again.\n"
            }
        }
        return out
    }

    /// `Entity.property: from -> to: fails for WHICH.`, or with data how many objects would fail.
    func describe(_ risk: MigrationRisk) -> String {
        var text = "\(risk.entity).\(risk.property): \(risk.from) -> \(risk.to): fails for \(risk.fails)"
        guard let found = failing(risk) else { return text + "." }
        let (count, objects, checked) = found
        guard checked else { return text + ": not checked (the other problems stop the migration first)." }
        guard count > 0 else { return text + ": no object would fail." }
        let list = objects.map(\.description).joined(separator: ", ")
        let more = count > objects.count ? " and \(count - objects.count) more" : ""
        text += ": \(DocumentInfo.grouped(count)) \(count == 1 ? "object" : "objects") would fail (\(list)\(more))."
        return text
    }

    /// Every action of `plan`, one line per entity and property; properties named by one of
    /// `blockers` say so instead of showing an action.
    static func describe(_ plan: MigrationPlan, blockers: [MigrationBlocker] = []) -> String {
        var out = ""
        func blocked(_ entity: String, _ property: String) -> MigrationBlocker? {
            blockers.first { $0.entity == entity && $0.property == property }
        }
        for entity in plan.entities {
            switch entity.kind {
            case .add:
                out += "  \(entity.destination): new entity, starts empty\n"
                continue
            case .copy:
                out += "  \(entity.destination): unchanged\(renamed(entity.source, entity.destination)), objects copied as they are\n"
            case .transform:
                out += "  \(entity.destination): changed\(renamed(entity.source, entity.destination)), objects copied property by property\n"
            }
            for attribute in entity.attributes {
                let action =
                    blocked(entity.destination, attribute.destination).map { "blocked: \($0.from) -> \($0.to)" }
                    ?? describe(attribute, lossy: plan.options.allowsLossyConversions)
                out += "    \(attribute.destination): \(action)\n"
            }
            for relationship in entity.relationships {
                let action =
                    blocked(entity.destination, relationship.destination).map { "blocked: \($0.from) -> \($0.to)" }
                    ?? describe(relationship)
                out += "    \(relationship.destination): \(action)\n"
            }
            for name in entity.removedAttributes { out += "    \(name): removed, its values are dropped\n" }
            for name in entity.removedRelationships { out += "    \(name): removed, its links are dropped\n" }
        }
        for name in plan.removedEntities { out += "  \(name): removed entity, its objects are dropped\n" }
        return out
    }

    private static func renamed(_ source: String?, _ destination: String) -> String {
        guard let source, source != destination else { return "" }
        return " (renamed from \(source))"
    }

    static func describe(_ attribute: AttributeMapping, lossy: Bool) -> String {
        var text: String
        switch attribute.action {
        case .copy: text = "copy"
        case .promote(let from, let to): text = "convert \(from.modelName) -> \(to.modelName) (lossless)"
        case .narrow(let from, let to):
            text =
                "convert \(from.modelName) -> \(to.modelName) (\(lossy ? "lossy: values that do not fit are truncated" : "checked: every value must fit"))"
        case .initialize(let value):
            text = "new attribute, " + (value.map { "every object gets \($0.displayString)" } ?? "starts empty")
        }
        if let source = attribute.source, source != attribute.destination { text += ", renamed from \(source)" }
        if attribute.fillsNilWithDefault { text += ", empty values get the default" }
        if attribute.requiresValue { text += " (required)" }
        return text
    }

    static func describe(_ relationship: RelationshipMapping) -> String {
        var text: String
        switch relationship.action {
        case .copy: text = "copy"
        case .wrap: text = "copy, each destination becomes the only member"
        case .collapse: text = "copy, keeping the one member of each object"
        case .initialize: text = "new relationship, starts empty"
        }
        let notes = relationship.notes.filter { !($0.hasPrefix("renamed from")) }
        if let source = relationship.source, source != relationship.destination { text += ", renamed from \(source)" }
        if !notes.isEmpty { text += " (\(notes.joined(separator: "; ")))" }
        if relationship.requiresValue { text += " (required)" }
        return text
    }
}

extension MigrationPlanReport {
    /// The inferred mapping between the versions called `from` and `to` of `model`.
    ///
    /// - Throws: ``OutlineError`` `noSuchVersion` listing the versions.
    public static func inferred(
        in model: ModelBundle, from: String, to: String, file: String? = nil,
        options: MigrationOptions = MigrationOptions()
    ) throws -> MigrationPlan {
        MigrationPlan.infer(
            from: try SchemaDescription.version(from, of: model, file: file),
            to: try SchemaDescription.version(to, of: model, file: file), options: options)
    }

    /// The error to exit with after printing a blocked plan (nil when nothing blocks it).
    ///
    /// - Parameter file: the file to name (the report's own file when nil).
    public func failure(file: String? = nil) -> OutlineError? {
        let where_ = "\(source) -> \(target)"
        if !blockers.isEmpty {
            return OutlineError(
                .migrationBlocked, file: file ?? self.file, at: where_,
                "the migration cannot be inferred (\(blockers.count) \(blockers.count == 1 ? "blocker" : "blockers") listed above)",
                hint: "Change the model as each blocker says, or add an intermediate version" + (self.file == nil ? "." : "; nothing was written."))
        }
        if !violations.isEmpty {
            return OutlineError(
                .migrationBlocked, file: file ?? self.file, at: where_,
                "the data does not fit \(target) (\(violations.count) \(violations.count == 1 ? "problem" : "problems") listed above)",
                hint: "Fix the objects named above in the old version, then migrate again; nothing was written.")
        }
        return nil
    }
}

extension MigrationBlocker {
    /// The blocker's hint in the tool's terms: the engine's hints name API options, the tool
    /// names its flags.
    var commandLineHint: String {
        switch code {
        case .toManyToToOne: "Keep it to-many, or pass --allow-to-one when no object has more than one destination."
        default: hint
        }
    }
}
