import ArgumentParser
import OutlineEngine

/// `--var NAME=VALUE` (repeatable): values for the `$NAME` variables of a query. VALUE is read
/// as a literal of the query language when it is one (`3`, `"3"`, `{1, 2}`, `YES`), else as
/// text.
struct QueryVariablesOption: ParsableArguments {
    @Option(name: .customLong("var"), help: ArgumentHelp("A value for $NAME in the query (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    /// The values by name, for `query` (nil: no query, so no variable may be given). A name the
    /// query does not use, or a variable it uses without a value, is a usage error; a query
    /// that does not parse is reported, with its column, when it runs.
    func values(for query: String?) throws -> [String: FetchPredicate.Argument] {
        var values: [String: FetchPredicate.Argument] = [:]
        for assignment in variables {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ValidationError("--var \(assignment): write NAME=VALUE, as in --var prefix=milk.")
            }
            var name = String(assignment[..<equals])
            if name.hasPrefix("$") { name.removeFirst() }
            let text = String(assignment[assignment.index(after: equals)...])
            guard values[name] == nil else { throw ValidationError("--var \(name) is given twice; give each variable one value.") }
            values[name] = FetchPredicate.Argument(literal: text) ?? .value(.string(text))
        }
        guard let query else {
            if let name = values.keys.sorted().first { throw ValidationError("--var \(name) needs a query that uses $\(name).") }
            return values
        }
        if let used = try? FetchPredicate(format: query).variables {
            if let unused = values.keys.sorted().first(where: { !used.contains($0) }) {
                throw ValidationError(
                    "--var \(unused): the query has no $\(unused)"
                        + (used.isEmpty ? "." : "; its variables are \(used.sorted().map { "$" + $0 }.joined(separator: ", "))."))
            }
            if let missing = used.sorted().first(where: { values[$0] == nil }) {
                throw ValidationError("the query uses $\(missing); give it a value with --var \(missing)=VALUE.")
            }
        }
        return values
    }
}
