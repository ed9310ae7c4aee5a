import Foundation
import SitegenCore
import SitegenInput
import SitegenOutput

/// What the config stage hands on.
struct Setup {
    var config: SiteConfig
    /// Where the site goes, opened for this build; nil for `sitegen check`.
    var output: (any SiteOutput)?
    /// What the build reads, hashed before it is read; nil for `sitegen check`.
    var fingerprint: BuildFingerprint?
    /// The last build's poll keys (SiteOutput.lastPollKeys).
    var reusablePolls: Set<String> = []
    /// The last build's poll cache, decoding since before the last build's files were read.
    var lastPollCache: LastPollCache?
}

/// Stage 1: site.yml and the environment, then the site output taken for this build.
///
/// The output is opened (locked) before any input is read, so a concurrent build of the
/// same site waits, and the "nothing changed" check sees a settled output.
struct ConfigStage {
    let options: BuildOptions

    enum Outcome {
        case build(Setup)
        /// The inputs are those of the last build, whose site is intact: nothing to do.
        /// With the `--changes` lines of a killed build that opening the output finished.
        case upToDate(SiteConfig, BuildRecord, carriedChanges: [String])
    }

    func run() throws(BuildFailure) -> Outcome {
        var config: SiteConfig
        do {
            config = try SiteConfigLoader.load(options.configFile)
        } catch {
            throw .configuration(error.diagnostics)
        }
        _ = try SourceDateEpoch.read(options.environment)
        if let output = options.output { config.output = output.standardizedFileURL }
        config.output = OutputFolder.resolvingLinks(config.output)
        guard options.write else {
            // `check` validates everything a build would: an output folder that overwrites an
            // input passed `check` and stopped `build` (exit 3). Looking writes nothing.
            if options.siteOutput == nil {
                do {
                    let folder = OutputFolder(output: config.output, keep: config.keep)
                    try folder.checkSafe(siteFolder: config.folder, protecting: [config.templates] + config.inputFolders)
                    // A first build refuses a folder holding files it did not write: check passed
                    // where build then stopped (exit 3). After a build, its record decides.
                    if !FileManager.default.fileExists(atPath: BuildState.url(for: config.output).path) {
                        try folder.checkOwnership(recorded: nil)
                    }
                } catch {
                    throw .io(error.message)
                }
            }
            return .build(Setup(config: config))
        }
        if let changes = options.changesFile { try Self.checkChangesFile(changes, config: config, configFile: options.configFile) }

        let output = try output(for: config)
        do {
            try output.open()
        } catch {
            throw .io(error.message)
        }
        let fingerprint = BuildFingerprint.compute(config: config, options: options, known: output.lastInputHashes)
        let lastPollCache = LastPollCache(output: output, fingerprint: fingerprint)
        lastPollCache.startUnlessUpToDate()
        do {
            if let record = try output.lastBuild(matching: fingerprint.value) {
                return .upToDate(config, record, carriedChanges: output.carriedChanges)
            }
        } catch {
            output.abandon()
            throw .io(error.message)
        }
        return .build(Setup(config: config, output: output, fingerprint: fingerprint, reusablePolls: output.lastPollKeys,
                            lastPollCache: lastPollCache))
    }

    /// `--changes FILE` is written over whatever is there: refused inside the output folder
    /// (it would replace a published page, or sitegen's own record beside it) and where
    /// sitegen reads (an export, a template, site.yml). Links are resolved first.
    static func checkChangesFile(_ file: URL, config: SiteConfig, configFile: URL) throws(BuildFailure) {
        let path = OutputFolder.resolvingLinks(file).path
        let output = config.output.path
        let outputName = config.output.lastPathComponent
        let besideOutput = config.output.deletingLastPathComponent().path + "/." + outputName + ".sitegen-"
        func inside(_ folder: URL) -> Bool {
            let folder = OutputFolder.resolvingLinks(folder).path
            return path == folder || path.hasPrefix(folder + "/")
        }
        var why: String?
        if path == output || path.hasPrefix(output + "/") || path.hasPrefix(besideOutput) {
            why = "it is in the output folder \(displayPath(config.output)), or one of sitegen's files beside it"
        } else if path == OutputFolder.resolvingLinks(configFile).path {
            why = "it is the site configuration"
        } else if let folder = ([config.templates] + config.inputFolders).first(where: inside) {
            why = "it is in \(displayPath(folder)), which sitegen reads"
        } else if !FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path) {
            // Found before the build, not after it as Foundation's "The file doesn't exist."
            why = "its folder \(displayPath(file.deletingLastPathComponent())) does not exist"
        }
        if let why {
            throw .configuration([Diagnostic(.error, file: displayPath(file), message: "--changes cannot write here: \(why)")])
        }
    }

    /// The output folder of site.yml, unless the options bring their own (MemoryOutput).
    private func output(for config: SiteConfig) throws(BuildFailure) -> any SiteOutput {
        if let given = options.siteOutput { return given }
        let folder = OutputFolder(output: config.output, keep: config.keep, fileSystem: options.fileSystem,
                                  removesInBackground: options.removesReplacedSiteInBackground)
        do {
            try folder.checkSafe(siteFolder: config.folder, protecting: [config.templates] + config.inputFolders)
        } catch {
            throw .io(error.message)
        }
        return folder
    }
}

extension SiteConfig {
    /// Every folder (and the tips file) sitegen reads inputs from.
    var inputFolders: [URL] {
        [inputs.polls, inputs.votes, inputs.trips, inputs.items, inputs.games, inputs.options, inputs.convoys]
            + [pages, tips.file].compactMap { $0 }
    }
}
