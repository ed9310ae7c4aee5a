import SitegenCore
import SitegenInput
/// What a successful build reports and leaves for the next one to compare with: the
/// fingerprint of its inputs, its counts and its diagnostics. A rebuild whose inputs have
/// the same fingerprint writes nothing and replays the diagnostics.
public struct BuildRecord: Sendable, Equatable {
    public var fingerprint: String
    public var pages: Int
    public var files: Int
    public var polls: Int
    public var ballots: Int
    public var diagnostics: [Diagnostic]
    /// What the build's log counted without keeping, replayed with the diagnostics.
    public var omissions: [DiagnosticLog.Omission] = []
    /// Each published poll's key (PollSteps) and each keyed file's (PlannedFile.key): a
    /// rebuild keeps the files of a poll or keyed file whose key is here instead of
    /// rendering them again.
    public var pollKeys: [String] = []
    /// Each input's hash with its stamp, for inputs that had settled when hashed
    /// (FileStamp.isSettled): the next build reads only inputs whose stamp changed.
    package var inputHashes: [HashedInput] = []

    public init(fingerprint: String, pages: Int, files: Int, polls: Int, ballots: Int, diagnostics: [Diagnostic],
                omissions: [DiagnosticLog.Omission] = [], pollKeys: [String] = []) {
        self.fingerprint = fingerprint
        self.pages = pages
        self.files = files
        self.polls = polls
        self.ballots = ballots
        self.diagnostics = diagnostics
        self.omissions = omissions
        self.pollKeys = pollKeys
    }
}
