import Foundation
@testable import SitegenCore
@testable import SitegenKit
import Testing

@Suite("GitHub workflow annotations")
struct WorkflowAnnotationTests {
    @Test("An error with file, line, column and field")
    func error() {
        let diagnostic = Diagnostic(.error, file: "Data/votes/v1.json", line: 3, column: 17, field: "[2].rankings",
                                    message: "expected an array of integers")
        #expect(WorkflowAnnotation.command(for: diagnostic)
            == "::error file=Data/votes/v1.json,line=3,col=17::[2].rankings: expected an array of integers")
    }

    @Test("A warning without a position names only the file; a column without a line is left out")
    func warning() {
        #expect(WorkflowAnnotation.command(for: Diagnostic(.warning, file: "Data/trips", message: "input path is not a folder"))
            == "::warning file=Data/trips::input path is not a folder")
        #expect(WorkflowAnnotation.command(for: Diagnostic(.warning, file: "a.json", line: 4, message: "m"))
            == "::warning file=a.json,line=4::m")
        #expect(WorkflowAnnotation.command(for: Diagnostic(.warning, file: "a.json", column: 4, message: "m"))
            == "::warning file=a.json::m")
    }

    @Test("The message escapes %, CR and LF, and keeps : and , as they are")
    func messageEscaping() {
        #expect(WorkflowAnnotation.escapedData("100% sure: a, b\r\nnext\rline\nend") == "100%25 sure: a, b%0D%0Anext%0Dline%0Aend")
        let diagnostic = Diagnostic(.error, file: "site.yml", line: 1, column: 1, message: "50%\n::error::injected")
        #expect(WorkflowAnnotation.command(for: diagnostic) == "::error file=site.yml,line=1,col=1::50%25%0A::error::injected")
        // Other controls and the line and paragraph separators are named, as in the terminal.
        #expect(WorkflowAnnotation.escapedData("a\u{2028}b\u{2029}c\u{1B}[31md\u{85}e\t") == #"a\u{2028}b\u{2029}c\u{1B}[31md\u{85}e\u{9}"#)
    }

    @Test("The summary line names the control characters of a hostile site title, so it cannot start a workflow command")
    func hostileTitleInSummary() {
        let report = BuildReport(title: "Mini \u{1B}[31mRED\u{1B}[0m \r\n::error::injected", output: URL(fileURLWithPath: "/tmp/site/Output"),
                                 pages: 1, files: 2, polls: 0, ballots: 0, seconds: 0.5, wrote: true)
        #expect(report.summary == #"Built 1 page (2 files) from 0 polls and 0 ballots for "Mini \u{1B}[31mRED\u{1B}[0m \u{D}\u{A}::error::injected" in 0.50 s → /tmp/site/Output/"#)
    }

    /// An override quoted from a trip's name would reverse the rest of the line where the
    /// line is read in a browser (GitHub's log and annotations) or a terminal that orders
    /// text by direction.
    @Test("Direction controls quoted from an export are named, in the terminal's line and in the annotation")
    func directionControls() {
        let diagnostic = Diagnostic(.warning, file: "Data/polls/a.json", line: 2, column: 5, field: "name",
                                    message: "trip \"I-95 \u{202E}26 points\u{2069}\u{200F}\u{061C}\": no game catalog holds game g1; shown by its id \u{1B}[31m")
        #expect(diagnostic.description == #"Data/polls/a.json:2:5: warning: name: trip "I-95 \u{202E}26 points\u{2069}\u{200F}\u{61C}": no game catalog holds game g1; shown by its id \u{1B}[31m"#)
        #expect(WorkflowAnnotation.command(for: diagnostic)
            == #"::warning file=Data/polls/a.json,line=2,col=5::name: trip "I-95 \u{202E}26 points\u{2069}\u{200F}\u{61C}": no game catalog holds game g1; shown by its id \u{1B}[31m"#)
        // Right-to-left letters themselves are text, and stay.
        #expect(Diagnostic(.warning, file: "a.json", message: "trip \"מי בא?\"").description == "a.json: warning: trip \"מי בא?\"")
    }

    @Test("A property value also escapes : and , so a file name cannot add or end properties")
    func propertyEscaping() {
        #expect(WorkflowAnnotation.escapedProperty("C:\\data,1%\r\n.json") == "C%3A\\data%2C1%25%0D%0A.json")
        let diagnostic = Diagnostic(.error, file: "Data/polls/a,line=9:b.json", line: 2, column: 5, message: "bad")
        #expect(WorkflowAnnotation.command(for: diagnostic) == "::error file=Data/polls/a%2Cline=9%3Ab.json,line=2,col=5::bad")
    }

    @Test("A problem of no file (an I/O failure)")
    func noFile() {
        #expect(WorkflowAnnotation.command(.error, message: "Output: cannot write: disk full\n")
            == "::error::Output: cannot write: disk full%0A")
    }

    @Test("Only GITHUB_ACTIONS=true turns annotations on")
    func enabled() {
        #expect(WorkflowAnnotation.isEnabled(environment: ["GITHUB_ACTIONS": "true"]))
        #expect(!WorkflowAnnotation.isEnabled(environment: ["GITHUB_ACTIONS": "false"]))
        #expect(!WorkflowAnnotation.isEnabled(environment: ["CI": "true"]))
        #expect(!WorkflowAnnotation.isEnabled(environment: [:]))
    }
}
