/// The one layout every error and warning of the project prints in:
/// `FILE: where: what. What to do.` (each part left out when absent).
public enum DiagnosticText {
    /// Joins the parts, adding the full stop after `message` when it has none.
    public static func format(file: String? = nil, location: String? = nil, message: String, hint: String? = nil) -> String {
        var text = ""
        if let file { text += "\(file): " }
        if let location { text += "\(location): " }
        text += message
        if !text.hasSuffix(".") { text += "." }
        if let hint { text += " \(hint)" }
        return text
    }
}
