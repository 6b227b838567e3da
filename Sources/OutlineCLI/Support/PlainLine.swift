/// The words of a batch line after the command's name, sorted into values, options and flags,
/// when they keep to the plain form that ``BatchQuickParsing`` builds commands from: each
/// option or flag written as one word that is exactly one of the command's long names
/// (`--under`), each at most once, every option followed by its value as the next word, and no
/// word beginning with `-` anywhere else.
///
/// Anything else (`--under=1`, `--`, `-h`, an unknown or repeated option, a value beginning with
/// `-`) makes the initializer return nil, and the line goes to swift-argument-parser, which
/// accepts or rejects it with its own words. Values keep their order; options and flags may
/// stand between them, as swift-argument-parser allows.
struct PlainLine {
    /// The positional values, in order.
    private(set) var values: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Sorts `words`, given the command's option names (each taking a value) and flag names.
    ///
    /// - Complexity: O(number of words).
    init?(_ words: ArraySlice<String>, options optionNames: Set<String>, flags flagNames: Set<String>) {
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            guard word.utf8.first == UInt8(ascii: "-") else {
                values.append(word)
                continue
            }
            if flagNames.contains(word) {
                guard flags.insert(word).inserted else { return nil }
            } else if optionNames.contains(word) {
                guard index < words.endIndex, options[word] == nil else { return nil }
                let value = words[index]
                index += 1
                guard value.utf8.first != UInt8(ascii: "-") else { return nil }
                options[word] = value
            } else {
                return nil
            }
        }
    }

    /// The value of option `name`, or nil when it was not given.
    func option(_ name: String) -> String? { options[name] }

    /// Whether flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// How many of `names` were given as flags.
    func flagCount(_ names: some Sequence<String>) -> Int { names.reduce(0) { $0 + (flags.contains($1) ? 1 : 0) } }

    /// The value of option `name` as a whole number: `.some(nil)` when it was not given, nil when
    /// it was given but is not a number (swift-argument-parser then says so).
    func integer(_ name: String) -> Int?? {
        guard let text = options[name] else { return .some(nil) }
        guard let number = Int(text) else { return nil }
        return .some(number)
    }
}
