import OutlineEngine
import OutlineKit

extension MigrationPlanReport {
    /// The plan as JSON for scripts:
    ///
    /// ```
    /// {"file", "source", "target", "current", "blocked", "ownModel", "path": [...],
    ///  "steps": [{"from", "to", "identity", "entities": [{"name", "kind", "source",
    ///     "attributes": [{"name", "source", "action", "from", "to", "default", "fillsNilWithDefault", "required"}],
    ///     "relationships": [{"name", "source", "action", "notes", "required"}],
    ///     "removedAttributes", "removedRelationships"}], "removedEntities"}],
    ///  "blockers": [{"code", "entity", "property", "from", "to", "reason", "hint"}],
    ///  "risks": [{"kind", "entity", "property", "from", "to", "fails", "when", "failing": {"checked", "count", "objects"} or null}],
    ///  "violations": [{"entity", "property", "message", "objects", "count"}],
    ///  "data": {"copied", "droppedObjects", "droppedValues", "droppedLinks", "defaultedValues"} or null,
    ///  "lost": [{"name", "count", "unit"}] (data the target has no place for; empty when none)}
    /// ```
    public func renderJSON() -> String {
        var members: [(key: String, value: JSONValue)] = []
        if let file { members.append(("file", .string(file))) }
        members += [
            ("source", .string(source)),
            ("target", .string(target)),
            ("current", .bool(isCurrent)),
            ("blocked", .bool(isBlocked)),
            ("ownModel", .string(ownModel)),
            ("path", .strings(isCurrent ? [] : path)),
            ("steps", .array(steps.map(Self.json(_:)))),
            ("blockers", .array(blockers.map(Self.json(_:)))),
            ("risks", .array(risks.map(json(_:)))),
            ("violations", .array(violations.map(Self.json(_:)))),
            ("data", effects.map(Self.json(_:)) ?? .null),
            (
                "lost",
                .array(
                    (loss?.entries ?? []).map { entry in
                        .object([("name", .string(entry.name)), ("count", .int(entry.count)), ("unit", .string(entry.unit))])
                    })
            ),
        ]
        return JSONValue.object(members).rendered()
    }

    static func json(_ plan: MigrationPlan) -> JSONValue {
        .object([
            ("from", .string(plan.source.name)),
            ("to", .string(plan.destination.name)),
            ("identity", .bool(plan.isIdentity)),
            (
                "entities",
                .array(
                    plan.entities.map { entity in
                        .object([
                            ("name", .string(entity.destination)),
                            ("kind", .string(entity.kind.rawValue)),
                            ("source", .string(entity.source)),
                            ("attributes", .array(entity.attributes.map(json(_:)))),
                            (
                                "relationships",
                                .array(
                                    entity.relationships.map { relationship in
                                        .object([
                                            ("name", .string(relationship.destination)),
                                            ("source", .string(relationship.source)),
                                            ("action", .string(action(relationship.action))),
                                            ("notes", .strings(relationship.notes)),
                                            ("required", .bool(relationship.requiresValue)),
                                        ])
                                    })
                            ),
                            ("removedAttributes", .strings(entity.removedAttributes)),
                            ("removedRelationships", .strings(entity.removedRelationships)),
                        ])
                    })
            ),
            ("removedEntities", .strings(plan.removedEntities)),
        ])
    }

    static func json(_ attribute: AttributeMapping) -> JSONValue {
        var from: String?
        var to: String?
        var defaultValue: JSONValue = .null
        let action: String
        switch attribute.action {
        case .copy: action = "copy"
        case .promote(let f, let t):
            action = "promote"
            from = f.modelName
            to = t.modelName
        case .narrow(let f, let t):
            action = "narrow"
            from = f.modelName
            to = t.modelName
        case .initialize(let value):
            action = "initialize"
            defaultValue = .string(value?.displayString)
        }
        return .object([
            ("name", .string(attribute.destination)),
            ("source", .string(attribute.source)),
            ("action", .string(action)),
            ("from", .string(from)),
            ("to", .string(to)),
            ("default", defaultValue),
            ("fillsNilWithDefault", .bool(attribute.fillsNilWithDefault)),
            ("required", .bool(attribute.requiresValue)),
        ])
    }

    static func action(_ action: RelationshipMapping.Action) -> String {
        switch action {
        case .copy: "copy"
        case .wrap: "wrap"
        case .collapse: "collapse"
        case .initialize: "initialize"
        }
    }

    static func json(_ blocker: MigrationBlocker) -> JSONValue {
        .object([
            ("code", .string(blocker.code.rawValue)),
            ("entity", .string(blocker.entity)),
            ("property", .string(blocker.property)),
            ("from", .string(blocker.from)),
            ("to", .string(blocker.to)),
            ("reason", .string(blocker.reason)),
            ("hint", .string(blocker.commandLineHint)),
        ])
    }

    func json(_ risk: MigrationRisk) -> JSONValue {
        var failingObjects = JSONValue.null
        if let found = failing(risk) {
            failingObjects = .object([
                ("checked", .bool(found.checked)), ("count", found.checked ? .int(found.count) : .null),
                ("objects", .strings(found.objects.map(\.description))),
            ])
        }
        return .object([
            ("kind", .string(risk.kind.rawValue)),
            ("entity", .string(risk.entity)),
            ("property", .string(risk.property)),
            ("from", .string(risk.from)),
            ("to", .string(risk.to)),
            ("fails", .string(risk.fails)),
            ("when", .string(risk.when)),
            ("failing", failingObjects),
        ])
    }

    static func json(_ violation: DataViolation) -> JSONValue {
        .object([
            ("entity", .string(violation.entity)),
            ("property", .string(violation.property)),
            ("message", .string(violation.message)),
            ("objects", .strings(violation.objects.map(\.description))),
            ("count", .int(violation.count)),
        ])
    }

    static func json(_ report: MigrationReport) -> JSONValue {
        func counts(_ dictionary: [String: Int]) -> JSONValue {
            .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
        }
        return .object([
            ("copied", counts(report.copiedObjects)),
            ("droppedObjects", counts(report.droppedObjects)),
            ("droppedValues", counts(report.droppedValues)),
            ("droppedLinks", counts(report.droppedLinks)),
            ("defaultedValues", counts(report.defaultedValues)),
        ])
    }
}
