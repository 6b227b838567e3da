import OutlineTool

/// What a command hands over when it is done and the process is about to end.
enum ProcessLifetime {
    /// Releases `file`'s editing lock and keeps its objects until the process exits, instead of
    /// freeing them one by one when the command returns: the kernel takes the memory back at once
    /// when the process ends, while freeing a million-item document takes about 30 ms.
    ///
    /// Call it last, once the document is saved and everything is printed; `file` must not be
    /// used afterwards, and the process should end soon (each call keeps one document).
    static func keepUntilExit(_ file: OutlineFile) {
        file.release()
        _ = Unmanaged.passRetained(file)  // never released: the process ends first
    }
}
