#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns an `errno` into a ``StorageError`` that says what failed, why, and what to do.
enum FileError {
    /// What the failing call was doing.
    enum Direction {
        case reading, writing
    }

    /// - Parameters:
    ///   - action: what failed, e.g. "cannot create the temporary file .notes.outline.outline-tmp-Ab3dE9".
    ///   - file: the document as the user named it.
    static func make(_ code: Int32, _ direction: Direction, file: String, _ action: String) -> StorageError {
        let reason: String
        var hint: String?
        switch code {
        case EACCES, EPERM:
            reason = "permission denied"
            hint =
                direction == .writing
                ? "Check the permissions of the file and its folder, or save somewhere else."
                : "Check the permissions of the file and its folder."
        case ENOSPC:
            reason = "the disk is full"
            hint = "Free some space, or save to another disk."
        case EDQUOT:
            reason = "the disk quota is exhausted"
            hint = "Free some space, or save to another disk."
        case EFBIG:
            reason = "the file would be larger than the file system or the file size limit (ulimit -f) allows"
            hint = "Raise the file size limit, or save to another disk."
        case EROFS:
            reason = "the file system is read-only"
            hint = "Save to another location."
        case EISDIR:
            reason = "it is a folder"
            hint = "Choose a file, not a folder."
        case ENOENT:
            reason = "no such file or folder"
            hint = "Check the path."
        case ENOTDIR:
            reason = "a part of the path is not a folder"
            hint = "Check the path."
        case ENAMETOOLONG:
            reason = "the name is too long"
            hint = "Choose a shorter name."
        case ELOOP:
            reason = "the path has too many symbolic links (or a loop of them)"
            hint = "Check the symbolic links on the path."
        case EIO:
            reason = "input/output error"
            hint = "The disk may be failing; save a copy somewhere else."
        case EMFILE, ENFILE:
            reason = "too many files are open"
            hint = "Close some documents and try again."
        case EBUSY, ETXTBSY:
            reason = "the file is busy"
            hint = "Try again later."
        case EXDEV:
            reason = "the paths are on different file systems"
        default:
            reason = String(cString: strerror(code))
        }
        return StorageError(direction == .writing ? .unwritable : .unreadable, file: file, "\(action): \(reason)", hint: hint)
    }
}
