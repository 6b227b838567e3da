import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Damaged XML stores: every truncation and thousands of seeded random edits either load or
/// throw a ``StorageError`` that names the file, never crash, hang or allocate without bound.
///
/// `OUTLINE_FUZZ_XML_VARIANTS` (default 1,000 per fixture) sets how many random edits each
/// fixture gets, `OUTLINE_FUZZ_SEED` (default 0x0E71) the seed; each run prints its outcome counts.
@Suite struct XMLDamageTests {
    /// A fixture with the model it is read with.
    struct Case: Sendable, CustomTestStringConvertible {
        let fixture: String
        let model: XMLStoreWritingTests.Model
        var testDescription: String { fixture }

        func schema() throws -> Schema? { try model.schema() }
    }

    static let cases = [
        Case(fixture: "NestedList.xml", model: .nestedList),
        Case(fixture: "AllTypes.xml", model: .allTypes),
        Case(fixture: "EmbeddedModel.xml", model: .embedded),
    ]

    static let variants = ProcessInfo.processInfo.environment["OUTLINE_FUZZ_XML_VARIANTS"].flatMap(Int.init) ?? 1_000
    static let seed = ProcessInfo.processInfo.environment["OUTLINE_FUZZ_SEED"].flatMap { UInt64($0, radix: 16) } ?? 0x0E71

    @Test(arguments: cases)
    func everyTruncationLoadsWhole(orIsReported xmlCase: Case) throws {
        let bytes = [UInt8](try XMLFixture.data(xmlCase.fixture))
        let schema = try xmlCase.schema()
        let expected = snapshot(try XMLStore.read(bytes, schema: schema, file: "whole.xml").graph)
        var outcomes = Outcomes()
        for length in 0 ..< bytes.count {
            let cut = Array(bytes[..<length])
            let outcome = try Self.read(cut, schema: schema, file: "cut.xml", label: "length \(length)")
            if case .loaded(let graph) = outcome {
                // Only the whitespace after </database> may go without the store changing.
                #expect(snapshot(graph) == expected, "length \(length) loaded differently")
                #expect(bytes[length...].allSatisfy { $0 == 0x0A || $0 == 0x20 }, "length \(length) loaded")
            }
            outcomes.count(outcome)
        }
        print("XML truncations of \(xmlCase.fixture) (\(bytes.count) bytes): \(outcomes)")
        #expect(outcomes.total == bytes.count)
        #expect(outcomes.errors.keys.allSatisfy { [.truncated, .malformedXML].contains($0) }, "\(outcomes)")
    }

    @Test(arguments: cases)
    func randomEditsLoadOrAreReported(_ xmlCase: Case) throws {
        let bytes = [UInt8](try XMLFixture.data(xmlCase.fixture))
        let schema = try xmlCase.schema()
        let regions = XMLRegions(bytes)
        var generator = SplitMix64(seed: Self.seed &+ UInt64(bytes.count))
        var outcomes = Outcomes()
        for variant in 0 ..< Self.variants {
            var damaged = bytes
            let edits = Int.random(in: 1 ... 3, using: &generator)
            var described: [String] = []
            for _ in 0 ..< edits {
                described.append(regions.edit(&damaged, using: &generator))
            }
            let label = "variant \(variant) (\(described.joined(separator: "; ")))"
            let outcome = try Self.read(damaged, schema: schema, file: "edited.xml", label: label)
            if case .loaded(let graph) = outcome {
                // What loads must also save and load again unchanged.
                let metadata = try XMLStore.read(damaged, schema: schema, file: "edited.xml").metadata
                let written = XMLStore.write(graph, metadata: metadata)
                let again = try XMLStore.read(written, schema: schema ?? graph.schema, file: "rewritten.xml").graph
                #expect(snapshot(again) == snapshot(graph), "\(label): the rewritten store reads differently")
            }
            outcomes.count(outcome)
        }
        print("XML random edits of \(xmlCase.fixture), seed \(String(Self.seed, radix: 16)): \(outcomes)")
        #expect(outcomes.total == Self.variants)
        // Most edits break the store; some (inside a text value, whitespace) do not.
        #expect(outcomes.errorCount > Self.variants / 2)
    }

    enum Outcome {
        case loaded(ObjectGraph)
        case failed(StorageError)
    }

    /// What a sweep gave: loads, and errors by code.
    struct Outcomes: CustomStringConvertible {
        var loaded = 0
        var errors: [StorageError.Code: Int] = [:]
        var total: Int { loaded + errorCount }
        var errorCount: Int { errors.values.reduce(0, +) }

        mutating func count(_ outcome: Outcome) {
            switch outcome {
            case .loaded: loaded += 1
            case .failed(let error): errors[error.code, default: 0] += 1
            }
        }

        var description: String {
            "\(total) variants: \(loaded) loaded, " + errors.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
    }

    /// Reads `bytes`, checking that a failure is a StorageError naming the file and that
    /// neither outcome takes long (a hang shows as a slow read).
    static func read(_ bytes: [UInt8], schema: Schema?, file: String, label: String) throws -> Outcome {
        let start = ContinuousClock.now
        defer { #expect(ContinuousClock.now - start < .seconds(2), "\(label) took \(ContinuousClock.now - start)") }
        do {
            return .loaded(try XMLStore.read(bytes, schema: schema, file: file).graph)
        } catch let error as StorageError {
            #expect(
                error.description.hasPrefix(file + ": ") || error.description.hasPrefix(file + " (embedded model): "),
                "\(label): \(error)")
            #expect(!error.message.isEmpty && error.hint?.isEmpty == false, "\(label): \(error)")
            return .failed(error)
        } catch {
            Issue.record("\(label): not a StorageError: \(error)")
            throw error
        }
    }
}

/// The byte ranges of an XML file by what they hold, so that random edits land in every kind
/// of place: markup, entity and character references, attribute values, numbers, object ids
/// and relationship references, and anywhere at all.
struct XMLRegions {
    enum Kind: CaseIterable { case anywhere, markup, entity, attributeValue, number, objectID, idref }

    var positions: [Kind: [Int]] = [:]
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        var inTag = false
        var quote: UInt8?
        var inEntity = false
        var idStart: Int?
        for (index, byte) in bytes.enumerated() {
            positions[.anywhere, default: []].append(index)
            if byte == UInt8(ascii: "<") && quote == nil { inTag = true }
            if inTag { positions[.markup, default: []].append(index) }
            if byte == UInt8(ascii: "&") { inEntity = true }
            if inEntity { positions[.entity, default: []].append(index) }
            if byte == UInt8(ascii: ";") { inEntity = false }
            if let open = quote {
                if byte == open {
                    quote = nil
                } else {
                    positions[.attributeValue, default: []].append(index)
                }
            } else if inTag && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) {
                quote = byte
            }
            if (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") {
                positions[.number, default: []].append(index)
            }
            // zNNN inside a quoted value: an id (id="...") or a reference (idrefs="...").
            if quote != nil && byte == UInt8(ascii: "z") { idStart = index }
            if let start = idStart {
                let isIdref = XMLRegions.precededBy(bytes, start, "idrefs=\"") || XMLRegions.inIdrefs(bytes, start)
                positions[isIdref ? .idref : .objectID, default: []].append(index)
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\"") { idStart = nil }
            }
            if byte == UInt8(ascii: ">") && quote == nil { inTag = false }
        }
    }

    private static func precededBy(_ bytes: [UInt8], _ index: Int, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard index >= needle.count else { return false }
        return Array(bytes[(index - needle.count) ..< index]) == needle
    }

    /// Whether `index` lies inside an `idrefs="..."` value.
    private static func inIdrefs(_ bytes: [UInt8], _ index: Int) -> Bool {
        var i = index - 1
        while i > 0 && bytes[i] != UInt8(ascii: "\"") { i -= 1 }
        return precededBy(bytes, i + 1, "idrefs=\"")
    }

    /// Bytes that matter to XML and to the store's values, plus UTF-8 fragments.
    static let interesting: [[UInt8]] =
        [
            "<", ">", "&", ";", "\"", "'", "/", "=", "z", "0", "9", "-", ".", " ", "\n", "\t", "#", "x",
            "&amp;", "&#0;", "&#x110000;", "&#xD800;", "&undefined;", "]]>", "<!--", "<![CDATA[", "</object>",
            "<object type=\"ITEM\" id=\"z102\">", "\\u2600", "99999999999999999999999", "-0", "1e400", "nan",
            // Numbers at the edges of what readers, the engine and the limits hold.
            "18446744073709551615", "18446744073709551616", "9223372036854775807", "-9223372036854775808",
            "4611686018427387904", "4611686018427387905", "2147483647", "-2147483649", "32768", "inf", "-inf", "1e308",
            "-63145526401", "252423993600", "0.000000000000000000001", "NaN", "1e-320",
        ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBB, 0xBF]]

    /// Applies one random edit (replace, insert or delete) in a random kind of place; returns what it did.
    func edit(_ bytes: inout [UInt8], using generator: inout SplitMix64) -> String {
        let kind = Kind.allCases.randomElement(using: &generator)!
        let candidates = positions[kind] ?? positions[.anywhere]!
        // Earlier edits may have shortened the file.
        let index = min(candidates.randomElement(using: &generator)!, max(bytes.count - 1, 0))
        let fill: [UInt8] =
            Bool.random(using: &generator)
            ? [UInt8.random(in: 0 ... 255, using: &generator)]
            : Self.interesting.randomElement(using: &generator)!
        guard !bytes.isEmpty else {
            bytes = fill
            return "inserted into nothing"
        }
        switch Int.random(in: 0 ..< 3, using: &generator) {
        case 0:
            let length = min(Int.random(in: 1 ... 4, using: &generator), bytes.count - index)
            bytes.replaceSubrange(index ..< index + length, with: fill)
            return "\(kind) byte \(index): replaced \(length) with \(fill)"
        case 1:
            bytes.insert(contentsOf: fill, at: index)
            return "\(kind) byte \(index): inserted \(fill)"
        default:
            let length = min(Int.random(in: 1 ... 8, using: &generator), bytes.count - index)
            bytes.removeSubrange(index ..< index + length)
            return "\(kind) byte \(index): deleted \(length)"
        }
    }
}
