/// What the program running the editor must do after a key: the editor itself never touches
/// files or the terminal.
public enum EditorEffect: Equatable, Sendable {
    /// Nothing beyond drawing the screen again.
    case none
    /// Save now (Ctrl-S).
    case save
    /// Save and quit (`q`), or quit without saving in a read-only session. When the save
    /// fails the program stays open and says so; `q` then tries again.
    case quit
    /// `Q`: quit without saving, which the program does only after it said that a save
    /// failed and offered it; otherwise it is ``quit``.
    case quitWithoutSaving
    /// The user answered the question about another program's change: true takes the
    /// file's version (reload), false keeps the edits made here (the next save replaces it).
    case reloadExternalChange(Bool)
}
