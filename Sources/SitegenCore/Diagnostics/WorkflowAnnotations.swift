import Foundation

/// GitHub Actions workflow commands (`::error file=F,line=L,col=C::MESSAGE`), printed to
/// stdout beside the usual stderr diagnostics, so a failing build marks the lines of the
/// export, page or site.yml at fault in the run and the pull request.
public enum WorkflowAnnotation {
    /// GitHub sets `GITHUB_ACTIONS=true` in every step of a workflow.
    public static func isEnabled(environment: [String: String]) -> Bool {
        environment["GITHUB_ACTIONS"] == "true"
    }

    public static func command(for diagnostic: Diagnostic) -> String {
        var properties = ["file=" + escapedProperty(diagnostic.file)]
        if let line = diagnostic.line {
            properties.append("line=\(line)")
            if let column = diagnostic.column { properties.append("col=\(column)") }
        }
        let subject = diagnostic.field.isEmpty ? "" : "\(diagnostic.field): "
        return "::\(diagnostic.severity.rawValue) \(properties.joined(separator: ","))::" + escapedData(subject + diagnostic.message)
    }

    /// A problem that belongs to no file (an I/O failure).
    public static func command(_ severity: Diagnostic.Severity, message: String) -> String {
        "::\(severity.rawValue)::" + escapedData(message)
    }

    /// The message after `::`; escaped as GitHub's toolkit does (`escapeData`), so a line
    /// break cannot end the command early. Other control characters, line and paragraph
    /// separators and direction controls are named (`\u{202E}`), as in the terminal
    /// (`Diagnostic.terminalSafe`): the annotation is read in a browser.
    package static func escapedData(_ text: String) -> String {
        escaped(text, also: [:])
    }

    /// A property value (`file=…`): `:` and `,` would end it, so they are escaped too (`escapeProperty`).
    package static func escapedProperty(_ text: String) -> String {
        escaped(text, also: [":": "%3A", ",": "%2C"])
    }

    private static func escaped(_ text: String, also extra: [Unicode.Scalar: String]) -> String {
        var out = ""
        // Scalars, not Characters: "\r\n" is one Character and both halves must be escaped.
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                if let replacement = extra[scalar] {
                    out += replacement
                } else if Diagnostic.isDirectionControl(scalar) || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                            || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    // Named as in the terminal: an escape sequence, a line or paragraph
                    // separator (a line break to a browser's reader) never reaches the log raw.
                    out += Diagnostic.shown(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
