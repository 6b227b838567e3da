/// What the program running the editor must do after a key: the editor itself never touches
/// files or the terminal.
public enum EditorEffect: Equatable, Sendable {
    /// Nothing beyond drawing the screen again.
    case none
    /// Save now (Ctrl-S).
    case save
    /// Save and quit (`q`), or quit without saving in a read-only session.
    case quit
    /// The user answered the question about another program's change: true takes the
    /// file's version (reload), false keeps the edits made here (the next save replaces it).
    case reloadExternalChange(Bool)
}
