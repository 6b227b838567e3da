/// The right side of `CONTAINS`, `BEGINSWITH`, `ENDSWITH` (and a string `IN`), prepared
/// once: folded, normalized, and with the Knuth–Morris–Pratt failure table of its bytes.
struct PredicateNeedle: Sendable {
    let bytes: [UInt8]
    /// `failure[i]`: the length of the longest proper prefix of `bytes[...i]` that is also its suffix.
    let failure: [Int]
    let options: FetchPredicate.Options

    init(_ needle: String, options: FetchPredicate.Options) {
        self.options = options
        let bytes = Array(PredicateStrings.normalized(needle, options).utf8)
        var failure = [Int](repeating: 0, count: bytes.count)
        var k = 0
        for i in bytes.indices.dropFirst() {
            while k > 0 && bytes[i] != bytes[k] { k = failure[k - 1] }
            if bytes[i] == bytes[k] { k += 1 }
            failure[i] = k
        }
        self.bytes = bytes
        self.failure = failure
    }

    /// Whether `haystack` contains, begins with or ends with the needle. An empty needle
    /// never matches, as in Foundation.
    ///
    /// - Complexity: O(n + m) for a haystack of n and a needle of m bytes.
    func matches(_ haystack: String, _ op: FetchPredicate.Operator, context: PredicateEvaluationContext) throws -> Bool {
        guard !bytes.isEmpty else { return false }
        try context.spend(1 + haystack.utf8.count)
        let text = Array(PredicateStrings.normalized(haystack, options).utf8)
        let n = bytes.count
        guard text.count >= n else { return false }
        switch op {
        case .beginsWith:
            return text[0 ..< n].elementsEqual(bytes) && !PredicateStrings.combiningMark(in: text, at: n)
        case .endsWith:
            return text[(text.count - n)...].elementsEqual(bytes)
        default:
            var k = 0
            for (i, byte) in text.enumerated() {
                while k > 0 && byte != bytes[k] { k = failure[k - 1] }
                if byte == bytes[k] { k += 1 }
                if k == n {
                    if !PredicateStrings.combiningMark(in: text, at: i + 1) { return true }
                    k = failure[k - 1]
                }
            }
            return false
        }
    }
}
