import Foundation
import SitegenCore
import SitegenInput

/// Stage 3: the checks that need every export read, polls included. Any input error logged
/// so far stops the build here (exit 1), after every problem was found; then a refused
/// path or a failed write among the streamed polls (exit 3).
struct CheckStage {
    let log: DiagnosticLog
    let failure: FirstFailure

    func run(_ inputs: Inputs) throws(BuildFailure) -> Inputs {
        var inputs = inputs
        let absent = inputs.ballotPolls.subtracting(inputs.polls.map(\.id))
        // Ignored votes are not among the summary's ballots.
        inputs.exports.ballotCount -= ExportSet.reportOrphanVotes(absent, voteFiles: inputs.exports.voteFiles, loader: inputs.loader, log: log,
                                                                  pollsFailed: log.hasErrors(below: displayPath(inputs.config.inputs.polls)))
        ExportSet.checkUniqueness(inputs.polls, pollFiles: inputs.exports.pollFiles, loader: inputs.loader, log: log)
        inputs.plausibility.report(to: log)
        inputs.layout.reportOrphanItems(inputs.exports.customItems, polls: inputs.polls)
        inputs.layout.reportUnknownGames(in: inputs.exports.optionSets)
        // An input that could not be read is not an input error: nothing is wrong with it.
        let unreadable = log.unreadableCount
        if unreadable > 0 {
            throw .io("\(Formatting.count(unreadable, "input")) could not be read (above); nothing was written")
        }
        if log.hasErrors { throw .inputErrors(count: log.errorCount) }
        if let message = failure.message { throw .io(message) }
        return inputs
    }
}
