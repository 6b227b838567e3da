import Foundation
import OutlineEngine

extension HistoryCoding {
    /// Decodes an encoded history record, checking every count and size against
    /// ``HistoryLimits`` and the bytes left before allocating for it.
    ///
    /// Names and values are only checked for form here; whether they fit the document's objects
    /// is for `EditingContext.importUndoHistory(_:)` to say.
    /// - Parameter file: how messages name the document.
    /// - Throws: ``StorageError`` `corrupt`, `limitExceeded` or `unsupportedVersion`, at
    ///   `history byte N`, with a hint that the document itself is not affected.
    static func decode(_ bytes: UnsafeRawBufferPointer, file: String) throws -> HistoryRecord {
        do {
            guard bytes.count <= HistoryLimits.maximumBytes else {
                throw StorageError(
                    .limitExceeded, file: file, at: "history byte 0",
                    "the undo history takes \(bytes.count) bytes, over the limit of \(HistoryLimits.maximumBytes)")
            }
            var reader = HistoryReader(cursor: ByteCursor(bytes, file: file, region: .history, context: "the undo history"))
            return try reader.record()
        } catch var error as StorageError {
            error.hint = damagedHint
            throw error
        }
    }

    /// What to do about a history that cannot be used (libraries name no commands).
    static let damagedHint = "The document itself is not affected; clear its undo history to keep editing with undo from here on."
}

/// Reads one record front to back.
private struct HistoryReader {
    var cursor: ByteCursor
    var names: [String] = []

    mutating func record() throws -> HistoryRecord {
        let version = try cursor.readByte()
        guard version == HistoryCoding.version else {
            throw StorageError(
                .unsupportedVersion, file: cursor.file, at: cursor.location(of: 0),
                "the undo history has format version \(version); this version reads \(HistoryCoding.version)")
        }
        let digest = Array(try cursor.readBytes(StateDigest.size))
        let limitAt = cursor.position
        let stepLimit = try cursor.readCount("the step limit", limit: HistoryLimits.maximumSteps, minimumBytesEach: 0)
        guard stepLimit > 0 else { throw cursor.corrupt("the step limit is 0", at: limitAt) }
        cursor.context = "the name table of the undo history"
        let nameCount = try cursor.readCount("the number of names", limit: HistoryLimits.maximumNames)
        names.reserveCapacity(nameCount)
        for _ in 0 ..< nameCount { names.append(try cursor.readString("a name", limit: HistoryLimits.maximumNameBytes)) }
        cursor.context = "the undo history"
        let countsAt = cursor.position
        let undoCount = try cursor.readCount("the number of undo steps", limit: HistoryLimits.maximumSteps, minimumBytesEach: 2)
        let redoCount = try cursor.readCount("the number of redo steps", limit: HistoryLimits.maximumSteps, minimumBytesEach: 2)
        guard undoCount + redoCount <= stepLimit else {
            throw cursor.corrupt("the undo history holds \(undoCount + redoCount) steps, more than its limit of \(stepLimit)", at: countsAt)
        }
        var history = UndoHistory()
        for number in 0 ..< undoCount + redoCount {
            cursor.context = "step \(number + 1) of the undo history"
            let step = try self.step()
            if number < undoCount { history.undoSteps.append(step) } else { history.redoSteps.append(step) }
        }
        try cursor.expectEnd()
        return HistoryRecord(stateDigest: digest, stepLimit: stepLimit, history: history)
    }

    private mutating func step() throws -> UndoHistory.Step {
        let flagAt = cursor.position
        let hasName = try cursor.readByte()
        guard hasName <= 1 else { throw cursor.corrupt("the name flag is \(hasName), not 0 or 1", at: flagAt) }
        let name = hasName == 1 ? try cursor.readString("the step's name", limit: HistoryLimits.maximumNameBytes) : nil
        let count = try cursor.readCount("the number of changes", limit: HistoryLimits.maximumBytes, minimumBytesEach: 2)
        var changes: [UndoHistory.Change] = []
        changes.reserveCapacity(count)
        for _ in 0 ..< count { changes.append(try change()) }
        return UndoHistory.Step(name: name, changes: changes)
    }

    private mutating func change() throws -> UndoHistory.Change {
        let at = cursor.position
        let raw = try cursor.readByte()
        guard let kind = HistoryCoding.Kind(rawValue: raw) else {
            throw cursor.corrupt("a change has kind \(raw), which is not one of 1 to 7", at: at)
        }
        switch kind {
        case .inserted:
            return .inserted(try id())
        case .deleted:
            var snapshot = UndoHistory.ObjectSnapshot(id: try id(), entity: try name())
            let attributes = try cursor.readCount(
                "the number of attributes of a deleted object", limit: HistoryLimits.maximumNames, minimumBytesEach: 2)
            for _ in 0 ..< attributes {
                let key = try name()
                guard let value = try value() else {
                    throw cursor.corrupt("attribute \(key) of deleted object \(snapshot.id) is stored as nil")
                }
                guard snapshot.attributes.updateValue(value, forKey: key) == nil else {
                    throw cursor.corrupt("deleted object \(snapshot.id) has attribute \(key) twice")
                }
            }
            let toOne = try cursor.readCount("the number of to-one links of a deleted object", limit: HistoryLimits.maximumNames, minimumBytesEach: 2)
            for _ in 0 ..< toOne {
                let key = try name()
                guard snapshot.toOne.updateValue(try id(), forKey: key) == nil else {
                    throw cursor.corrupt("deleted object \(snapshot.id) has relationship \(key) twice")
                }
            }
            let toMany = try cursor.readCount(
                "the number of to-many links of a deleted object", limit: HistoryLimits.maximumNames, minimumBytesEach: 2)
            for _ in 0 ..< toMany {
                let key = try name()
                guard snapshot.toMany.updateValue(try ids(), forKey: key) == nil else {
                    throw cursor.corrupt("deleted object \(snapshot.id) has relationship \(key) twice")
                }
            }
            return .deleted(snapshot)
        case .attribute:
            return .attribute(try id(), try name(), old: try value())
        case .toOne:
            let object = try id()
            let key = try name()
            let oldAt = cursor.position
            let old = try cursor.readVarint()
            guard old <= ObjectID.historyMaximum + 1 else { throw cursor.corrupt("object id \(old - 1) is over the largest allowed id", at: oldAt) }
            return .toOne(object, key, old: old == 0 ? nil : ObjectID(old - 1))
        case .memberInserted, .memberRemoved:
            let object = try id()
            let key = try name()
            let index = try cursor.readCount("a position", limit: Int(Int32.max), minimumBytesEach: 0)
            let member = try id()
            return kind == .memberInserted
                ? .memberInserted(object, key, index: index, member: member)
                : .memberRemoved(object, key, index: index, member: member)
        case .membersReplaced:
            return .membersReplaced(try id(), try name(), old: try ids())
        }
    }

    private mutating func id() throws -> ObjectID {
        let at = cursor.position
        let raw = try cursor.readVarint()
        guard raw <= ObjectID.historyMaximum else { throw cursor.corrupt("object id \(raw) is over the largest allowed id", at: at) }
        return ObjectID(raw)
    }

    private mutating func ids() throws -> [ObjectID] {
        let count = try cursor.readCount("the number of members", limit: HistoryLimits.maximumBytes, minimumBytesEach: 1)
        var result: [ObjectID] = []
        result.reserveCapacity(count)
        for _ in 0 ..< count { result.append(try id()) }
        return result
    }

    private mutating func name() throws -> String {
        let at = cursor.position
        let number = try cursor.readVarint()
        guard number < UInt64(names.count) else {
            throw cursor.corrupt("name number \(number) is not in the table of \(names.count) names", at: at)
        }
        return names[Int(number)]
    }

    private mutating func value() throws -> Value? {
        let at = cursor.position
        let raw = try cursor.readByte()
        guard let tag = HistoryCoding.Tag(rawValue: raw) else {
            throw cursor.corrupt("a value has type tag \(raw), which is not one of 0 to 9", at: at)
        }
        switch tag {
        case .none: return nil
        case .integer: return .integer(try cursor.readSignedVarint())
        case .double: return .double(try cursor.readDouble())
        case .decimal:
            let text = try cursor.readString("a decimal value", limit: 1024)
            let parsed = text == "NaN" ? Decimal.nan : Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            guard let decimal = parsed, text == "NaN" || decimal.description == text else {
                throw cursor.corrupt("\"\(text)\" is not a decimal number", at: at)
            }
            return .decimal(decimal)
        case .string: return .string(try cursor.readString("a string value", limit: HistoryLimits.maximumBytes))
        case .no: return .boolean(false)
        case .yes: return .boolean(true)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: try cursor.readDouble()))
        case .binary:
            let count = try cursor.readCount("the length of a binary value", limit: HistoryLimits.maximumBytes, minimumBytesEach: 0)
            return .binary(Data(try cursor.readBytes(count)))
        case .uuid:
            let raw = try cursor.readBytes(16)
            return .uuid(
                UUID(
                    uuid: (
                        raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                    )))
        }
    }
}

extension ObjectID {
    /// The largest id a history may name: the binary format's largest (2^62).
    static let historyMaximum: UInt64 = BinaryFormat.maximumObjectID
}
