import Foundation

/// Validation of required values, bounds, patterns, counts and uniqueness, as on save.
extension EditingContext {
    /// Every rule the given objects break (all live objects when `objects` is nil), in object order.
    ///
    /// Uniqueness constraints are always checked over all objects of the constrained entities.
    public func validationIssues(of objects: [ManagedObject]? = nil) -> [ValidationIssue] {
        validationIssues(of: objects, limit: .max).issues
    }

    /// The first `limit` rules the given objects break (all live objects when `objects` is
    /// nil), in object order, and how many they break in all: memory stays bounded however
    /// many objects break a rule.
    public func validationIssues(of objects: [ManagedObject]? = nil, limit: Int) -> (issues: [ValidationIssue], count: Int) {
        let subjects = (objects ?? schema.entityIndices.flatMap { graph.objects(ofEntity: $0, includingSubentities: false) })
            .filter { graph.contains($0) }
            .sorted { graph.objectID(of: $0) < graph.objectID(of: $1) }
        var issues: [ValidationIssue] = []
        var count = 0
        var patterns: [String: NSRegularExpression?] = [:]
        // Per entity, once: the properties that can fail a check, and whether a check needs
        // the value itself or only whether it is nil. An optional attribute without bounds
        // or pattern cannot fail and is not read at all.
        let plans = schema.infos.map { info in
            (
                attributes: info.attributeIndices.filter { a in
                    let attribute = info[a]
                    return !attribute.isTransient && (!attribute.isOptional || Self.needsValue(attribute))
                }.map { (index: $0, needsValue: Self.needsValue(info[$0])) },
                relationships: info.storedRelationshipIndices
            )
        }
        for object in subjects {
            let info = schema.infos[object.entity]
            let plan = plans[object.entity]
            func issue(_ property: String?, _ message: String) {
                count += 1
                guard issues.count < limit else { return }
                issues.append(
                    ValidationIssue(
                        object: object, objectID: objectID(of: object), entity: info.name,
                        property: property, message: message))
            }
            for (a, needsValue) in plan.attributes {
                let attribute = info.attributes[a]
                guard needsValue else {
                    if graph.tables[object.entity].attributes[a].isNil(object.row) { issue(attribute.name, "a value is required") }
                    continue
                }
                guard let value = graph.attributeValue(of: object, a) else {
                    if !attribute.isOptional { issue(attribute.name, "a value is required") }
                    continue
                }
                checkBounds(value, attribute, issue)
                if let pattern = attribute.regularExpression, !pattern.isEmpty, case .string(let text) = value {
                    let regex = patterns[pattern] ?? (try? NSRegularExpression(pattern: "^(?:\(pattern))$"))
                    patterns[pattern] = regex
                    if let regex, regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                        issue(attribute.name, "\"\(text)\" does not match the pattern \(pattern)")
                    }
                }
            }
            for r in plan.relationships {
                let relationship = info.relationships[r]
                guard relationship.isToMany else {
                    // To-one: no array per object.
                    if let target = graph.relatedObject(of: object, r) {
                        if !graph.contains(target) {
                            issue(
                                relationship.name, "refers to \(schema.entities[target.entity].name) \(graph.objectID(of: target)), which was deleted"
                            )
                        }
                    } else if !relationship.isOptional {
                        issue(relationship.name, "a related object is required")
                    }
                    continue
                }
                let targets = graph.relatedObjects(of: object, r)
                if let dead = targets.first(where: { !graph.contains($0) }) {
                    issue(relationship.name, "refers to \(schema.entities[dead.entity].name) \(graph.objectID(of: dead)), which was deleted")
                }
                let count = targets.count
                if count == 0 && relationship.isOptional { continue }
                if count < relationship.minCount || (count == 0 && !relationship.isOptional) {
                    issue(relationship.name, "has \(count) objects; at least \(max(relationship.minCount, 1)) required")
                } else if relationship.maxCount > 0 && count > relationship.maxCount {
                    issue(relationship.name, "has \(count) objects; at most \(relationship.maxCount) allowed")
                }
            }
        }
        let unique = uniquenessIssues()
        count += unique.count
        issues += unique.prefix(max(0, limit - issues.count))
        return (issues, count)
    }

    /// Throws when ``validationIssues(of:)`` finds anything for the inserted and updated objects.
    ///
    /// - Throws: ``EngineError`` `validationFailed` listing every issue in `details`.
    public func validateForSave() throws {
        try validate(Array(insertedObjects.union(updatedObjects)))
    }

    /// Throws when ``validationIssues(of:)`` finds anything for `objects`.
    ///
    /// - Throws: ``EngineError`` `validationFailed` listing the first ``listedIssues`` issues in
    ///   `details`, then "and N more".
    public func validate(_ objects: [ManagedObject]) throws {
        let (issues, count) = validationIssues(of: objects, limit: Self.listedIssues)
        guard let first = issues.first else { return }
        let more = count > issues.count ? ["and \(count - issues.count) more"] : []
        throw EngineError(
            .validationFailed, at: first.description.components(separatedBy: ": ").first,
            count == 1 ? first.message : "\(count) validation problems, the first: \(first.message)",
            hint: "Correct the values and save again.", details: issues.map(\.description) + more)
    }

    /// How many issues a failed save lists before "and N more".
    public static let listedIssues = 100

    /// Whether checking `attribute` needs its value: it has bounds or a pattern.
    private static func needsValue(_ attribute: Attribute) -> Bool {
        attribute.minValue != nil || attribute.maxValue != nil || !(attribute.regularExpression ?? "").isEmpty
    }

    private func checkBounds(_ value: Value, _ attribute: Attribute, _ issue: (String?, String) -> Void) {
        let measure: Double?
        let what: String
        switch value {
        case .string(let s):
            measure = Double(s.count)
            what = "length"
        case .binary(let d):
            measure = Double(d.count)
            what = "length"
        case .date(let d):
            measure = d.timeIntervalSinceReferenceDate
            what = "date"
        default:
            measure = value.doubleValue
            what = "value"
        }
        guard let measure else { return }
        func bound(_ v: Value) -> Double? { v.dateValue?.timeIntervalSinceReferenceDate ?? v.doubleValue }
        if let min = attribute.minValue.flatMap(bound), measure < min {
            issue(attribute.name, "\(what) \(format(measure, value)) is below the minimum \(format(min, value))")
        }
        if let max = attribute.maxValue.flatMap(bound), measure > max {
            issue(attribute.name, "\(what) \(format(measure, value)) is above the maximum \(format(max, value))")
        }
    }

    private func format(_ number: Double, _ value: Value) -> String {
        if case .date = value { return Date(timeIntervalSinceReferenceDate: number).formatted(.iso8601) }
        return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private func uniquenessIssues() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for info in schema.infos {
            for constraint in info.entity.uniquenessConstraints where !constraint.isEmpty {
                var seen: [[String]: ManagedObject] = [:]
                for object in graph.objects(ofEntity: info.index) {
                    let key = constraint.map { name -> String in
                        if let a = info.attributeIndex(named: name) {
                            return graph.attributeValue(of: object, a).map { "\($0)" } ?? "nil"
                        }
                        if let r = info.relationshipIndex(named: name) {
                            return targets(of: object, r).map { "\(graph.objectID(of: $0))" }.joined(separator: ",")
                        }
                        return ""
                    }
                    if let first = seen[key] {
                        issues.append(
                            ValidationIssue(
                                object: object, objectID: objectID(of: object), entity: info.name, property: nil,
                                message: "has the same \(constraint.joined(separator: " and ")) as \(describe(first)); it must be unique"))
                    } else {
                        seen[key] = object
                    }
                }
            }
        }
        return issues
    }
}
