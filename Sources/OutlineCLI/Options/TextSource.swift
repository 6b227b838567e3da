import ArgumentParser
import Foundation
import OutlineStorage
import OutlineTool

/// Text given on the command line or read from a file (`-` for standard input), for texts and
/// notes longer than a command line takes.
enum TextSource {
    /// The text of the file at `path` (`-`: standard input): UTF-8, without one final newline.
    ///
    /// - Throws: ``OutlineStorage/StorageError`` when the file cannot be read or is not UTF-8.
    static func read(_ path: String, as purpose: String) throws -> String {
        let bytes: [UInt8]
        if StandardStreams.isStandard(path) {
            bytes = try StandardStreams.readInput(as: purpose, limit: maximumBytes)
        } else {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                guard data.count <= maximumBytes else {
                    throw StorageError(
                        .limitExceeded, file: path, "the file holds \(data.count) bytes, more than the \(maximumBytes) a text may have",
                        hint: "Give a shorter text.")
                }
                bytes = [UInt8](data)
            } catch let error as StorageError {
                throw error
            } catch {
                throw StorageError(
                    .unreadable, file: path, "cannot read the file (\(error.localizedDescription))",
                    hint: "Check that the file exists and that you may read it.")
            }
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw StorageError(
                .corrupt, file: StandardStreams.inputDisplayName(path), "\(purpose) is not valid UTF-8",
                hint: "Convert the file to UTF-8 (for example with iconv) and try again.")
        }
        // The newline that ends the file is not part of the text. By scalars: "\r\n" is one
        // Character in Swift, so removing two Characters would take a letter with it.
        if text.unicodeScalars.last == "\n" {
            text.unicodeScalars.removeLast()
            if text.unicodeScalars.last == "\r" { text.unicodeScalars.removeLast() }
        }
        return text
    }

    /// The most bytes a text or note read from a file may have (64 MiB).
    static let maximumBytes = 64 << 20

    /// `value`, or the text of `file`; a usage error when both or (unless `optional`) neither is given.
    static func choose(_ value: String?, file: String?, name: String, optional: Bool) throws -> String? {
        switch (value, file) {
        case (_?, _?):
            throw ValidationError("Give the \(name) or --\(name)-file, not both.")
        case (let value?, nil):
            return value
        case (nil, let file?):
            return try read(file, as: "the \(name)")
        case (nil, nil):
            if optional { return nil }
            throw ValidationError("Give the \(name), or --\(name)-file FILE (- for standard input).")
        }
    }
}
