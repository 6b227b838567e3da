import Foundation

/// How an OPML export writes done state, after the app that is to read the file.
///
/// Reading accepts all three spellings whatever the flavour. The attribute names follow the
/// files these apps write: OmniOutliner `_status="checked"`, Workflowy `_complete="true"`
/// (the underscore form, as in Workflowy's own exports), Dynalist `complete="true"`.
public enum OPMLFlavor: String, Sendable, Hashable, CaseIterable {
    /// `_status="checked"` (and `_status="unchecked"` where the file had one).
    case omni
    /// `_complete="true"`.
    case workflowy
    /// `complete="true"`.
    case dynalist

    /// The flavour that writes done state in attribute `name`.
    public init?(doneAttribute name: String) {
        guard let flavor = Self.allCases.first(where: { $0.doneAttribute == name }) else { return nil }
        self = flavor
    }

    /// The attribute that holds done state.
    public var doneAttribute: String {
        switch self {
        case .omni: "_status"
        case .workflowy: "_complete"
        case .dynalist: "complete"
        }
    }

    /// How `done` is spelled in ``doneAttribute``.
    public func spell(_ done: Bool) -> String {
        switch self {
        case .omni: done ? "checked" : "unchecked"
        case .workflowy, .dynalist: done ? "true" : "false"
        }
    }
}

/// Reading the attributes that map to item properties.
enum OPMLValues {
    /// The attribute names that hold done state, in any flavour.
    static let doneAttributes: Set<String> = ["_status", "_complete", "complete"]

    /// The done state `value` of done attribute `name` spells, and whether that is the
    /// canonical spelling; nil when it spells none (OmniOutliner's `indeterminate` included).
    static func done(_ name: String, _ value: String) -> (done: Bool, canonical: Bool)? {
        if name == "_status" {
            switch value.lowercased() {
            case "checked": return (true, value == "checked")
            case "unchecked": return (false, value == "unchecked")
            default: return nil
            }
        }
        return boolean(value)
    }

    /// The boolean `value` spells (`true`/`false`, `yes`/`no`, `1`/`0`, any case), and whether
    /// it is spelled `true` or `false`.
    static func boolean(_ value: String) -> (done: Bool, canonical: Bool)? {
        switch value.lowercased() {
        case "true", "yes", "1": (true, value == "true")
        case "false", "no", "0": (false, value == "false")
        default: nil
        }
    }

    /// The tags `category` lists: its comma-separated entries, trimmed, empty ones and repeats
    /// left out (OPML 2.0: "a string of comma-separated slash-delimited category strings"; a
    /// tag is one without slashes, and one with slashes is kept as a tag of that name).
    static func categories(_ value: String) -> [String] {
        var seen: Set<String> = []
        return value.split(separator: ",", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
