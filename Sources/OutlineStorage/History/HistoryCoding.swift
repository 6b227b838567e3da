import Foundation
import OutlineEngine

/// The bytes of a document's undo history, the same in both formats (`Docs/UndoHistory.md`
/// describes every byte): a version, the state digest, the step limit, a table of entity and
/// property names, then the steps.
///
/// Writing is deterministic and keeps within ``HistoryLimits``: the oldest undo steps, then the
/// farthest redo steps, are left out until the encoding fits ``HistoryLimits/maximumBytes``.
enum HistoryCoding {
    /// The version this build writes and reads.
    static let version: UInt8 = 1
    /// Where the state digest starts: after the version byte.
    static let digestOffset = 1

    /// Value tags.
    enum Tag: UInt8 {
        case none = 0
        case integer = 1
        case double = 2
        case decimal = 3
        case string = 4
        case no = 5
        case yes = 6
        case date = 7
        case binary = 8
        case uuid = 9
    }

    /// Change kinds.
    enum Kind: UInt8 {
        case inserted = 1
        case deleted = 2
        case attribute = 3
        case toOne = 4
        case memberInserted = 5
        case memberRemoved = 6
        case membersReplaced = 7
    }

    // MARK: Writing

    /// The encoded record and how many steps were left out to keep within the limits.
    static func encode(_ history: UndoHistory, stepLimit: Int, digest: [UInt8] = [UInt8](repeating: 0, count: StateDigest.size))
        -> (bytes: [UInt8], leftOut: Int)
    {
        precondition((1 ... HistoryLimits.maximumSteps).contains(stepLimit), "step limit \(stepLimit) out of range")
        precondition(digest.count == StateDigest.size, "a state digest has \(StateDigest.size) bytes")
        var undo = history.undoSteps.suffix(stepLimit)
        var redo = history.redoSteps.suffix(stepLimit - undo.count)
        var leftOut = history.count - undo.count - redo.count
        var names = NameTable()
        var undoBytes = undo.map { names.encode($0) }
        var redoBytes = redo.map { names.encode($0) }
        let fixed = 1 + StateDigest.size + 30
        var total = fixed + names.size + undoBytes.reduce(0) { $0 + $1.count } + redoBytes.reduce(0) { $0 + $1.count }
        if total > HistoryLimits.maximumBytes {
            // Oldest undo steps first, then the farthest redo steps; names of dropped steps stay
            // counted, so what remains certainly fits once the table is rebuilt.
            while total > HistoryLimits.maximumBytes, !undoBytes.isEmpty {
                total -= undoBytes.removeFirst().count
                undo.removeFirst()
            }
            while total > HistoryLimits.maximumBytes, !redoBytes.isEmpty {
                total -= redoBytes.removeFirst().count
                redo.removeFirst()
            }
            leftOut = history.count - undo.count - redo.count
            names = NameTable()
            undoBytes = undo.map { names.encode($0) }
            redoBytes = redo.map { names.encode($0) }
        }
        var w = ByteWriter(capacity: fixed + names.size + total)
        w.writeByte(version)
        w.writeBytes(digest)
        w.writeVarint(stepLimit)
        w.writeVarint(names.names.count)
        for name in names.names { w.writeString(name) }
        w.writeVarint(undoBytes.count)
        w.writeVarint(redoBytes.count)
        for step in undoBytes { w.writeBytes(step) }
        for step in redoBytes { w.writeBytes(step) }
        return (w.bytes, leftOut)
    }

    /// `bytes` (an encoded record) with its state digest replaced by `digest`.
    static func filling(_ bytes: [UInt8], digest: [UInt8]) -> [UInt8] {
        var bytes = bytes
        bytes.replaceSubrange(digestOffset ..< digestOffset + StateDigest.size, with: digest)
        return bytes
    }

    /// Entity and property names, each written once and referred to by number.
    private struct NameTable {
        var names: [String] = []
        var numbers: [String: Int] = [:]
        /// Bytes the table takes, with generous room for the varints.
        var size = 0

        /// The name asked for last and its number: a step's changes mostly name one property
        /// (the order of every item a move renumbers), and comparing is cheaper than hashing.
        private var last: (name: String, number: Int)?

        mutating func number(_ name: String) -> Int {
            if let last, last.name == name { return last.number }
            let number: Int
            if let known = numbers[name] {
                number = known
            } else {
                number = names.count
                numbers[name] = number
                names.append(name)
                size += name.utf8.count + 10
            }
            last = (name, number)
            return number
        }

        /// One step's bytes.
        mutating func encode(_ step: UndoHistory.Step) -> [UInt8] {
            var w = ByteWriter()
            if let name = step.name {
                w.writeByte(1)
                w.writeString(shortened(name))
            } else {
                w.writeByte(0)
            }
            w.writeVarint(step.changes.count)
            for change in step.changes { encode(change, into: &w) }
            return w.bytes
        }

        private mutating func encode(_ change: UndoHistory.Change, into w: inout ByteWriter) {
            switch change {
            case .inserted(let id):
                w.writeByte(Kind.inserted.rawValue)
                w.writeVarint(id.rawValue)
            case .deleted(let snapshot):
                w.writeByte(Kind.deleted.rawValue)
                w.writeVarint(snapshot.id.rawValue)
                w.writeVarint(number(snapshot.entity))
                w.writeVarint(snapshot.attributes.count)
                for (name, value) in snapshot.attributes.sorted(by: { $0.key < $1.key }) {
                    w.writeVarint(number(name))
                    HistoryCoding.write(value, into: &w)
                }
                w.writeVarint(snapshot.toOne.count)
                for (name, target) in snapshot.toOne.sorted(by: { $0.key < $1.key }) {
                    w.writeVarint(number(name))
                    w.writeVarint(target.rawValue)
                }
                w.writeVarint(snapshot.toMany.count)
                for (name, members) in snapshot.toMany.sorted(by: { $0.key < $1.key }) {
                    w.writeVarint(number(name))
                    HistoryCoding.write(members, into: &w)
                }
            case .attribute(let id, let name, let old):
                w.writeByte(Kind.attribute.rawValue)
                w.writeVarint(id.rawValue)
                w.writeVarint(number(name))
                HistoryCoding.write(old, into: &w)
            case .toOne(let id, let name, let old):
                w.writeByte(Kind.toOne.rawValue)
                w.writeVarint(id.rawValue)
                w.writeVarint(number(name))
                w.writeVarint(old.map { $0.rawValue + 1 } ?? 0)
            case .memberInserted(let id, let name, let index, let member), .memberRemoved(let id, let name, let index, let member):
                if case .memberInserted = change {
                    w.writeByte(Kind.memberInserted.rawValue)
                } else {
                    w.writeByte(Kind.memberRemoved.rawValue)
                }
                w.writeVarint(id.rawValue)
                w.writeVarint(number(name))
                w.writeVarint(index)
                w.writeVarint(member.rawValue)
            case .membersReplaced(let id, let name, let old):
                w.writeByte(Kind.membersReplaced.rawValue)
                w.writeVarint(id.rawValue)
                w.writeVarint(number(name))
                HistoryCoding.write(old, into: &w)
            }
        }

        /// `name` cut to ``HistoryLimits/maximumNameBytes`` at a character boundary.
        private func shortened(_ name: String) -> String {
            guard name.utf8.count > HistoryLimits.maximumNameBytes else { return name }
            var result = ""
            var bytes = 0
            for character in name {
                let size = character.utf8.count
                if bytes + size + 3 > HistoryLimits.maximumNameBytes { break }
                result.append(character)
                bytes += size
            }
            return result + "…"
        }
    }

    private static func write(_ ids: [ObjectID], into w: inout ByteWriter) {
        w.writeVarint(ids.count)
        for id in ids { w.writeVarint(id.rawValue) }
    }

    private static func write(_ value: Value?, into w: inout ByteWriter) {
        guard let value else { return w.writeByte(Tag.none.rawValue) }
        switch value {
        case .integer(let n):
            w.writeByte(Tag.integer.rawValue)
            w.writeSignedVarint(n)
        case .double(let d):
            w.writeByte(Tag.double.rawValue)
            w.writeDouble(d)
        case .decimal(let d):
            w.writeByte(Tag.decimal.rawValue)
            w.writeString(d.isNaN ? "NaN" : d.description)
        case .string(let s):
            w.writeByte(Tag.string.rawValue)
            w.writeString(s)
        case .boolean(let b):
            w.writeByte(b ? Tag.yes.rawValue : Tag.no.rawValue)
        case .date(let date):
            w.writeByte(Tag.date.rawValue)
            w.writeDouble(date.timeIntervalSinceReferenceDate)
        case .binary(let data):
            w.writeByte(Tag.binary.rawValue)
            w.writeVarint(data.count)
            w.writeBytes(data)
        case .uuid(let uuid):
            w.writeByte(Tag.uuid.rawValue)
            withUnsafeBytes(of: uuid.uuid) { w.writeBytes($0) }
        }
    }
}
