import Foundation

/// A temporary folder for the documents of a run, removed by ``remove()`` (the benchmark calls
/// it on every way out, an interrupt included).
final class ScratchFolder: Sendable {
    let path: String
    private let keeps: Bool

    /// Creates a new folder `outline-benchmark.XXXXXX` in `parent`.
    ///
    /// - Parameter keeps: leave the folder in place at the end (to look at the files).
    init(in parent: String, keeps: Bool) throws {
        var template = Array((parent + "/outline-benchmark.XXXXXX").utf8CString)
        let created: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let created else {
            throw BenchmarkError("cannot create a temporary folder in \(parent): \(String(cString: strerror(errno)))")
        }
        path = created
        self.keeps = keeps
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Removes `name` if it exists.
    func removeFile(_ name: String) {
        try? FileManager.default.removeItem(atPath: file(name))
    }

    /// Removes the folder and everything in it, unless asked to keep it.
    func remove() {
        guard !keeps else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
