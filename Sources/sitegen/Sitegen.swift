import ArgumentParser
import CHeap
import Foundation
import SitegenCore
import SitegenInput
import SitegenKit

@main
struct Sitegen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Builds a private, read-only website from trip-planning exports.",
        version: SitegenVersion.current,
        subcommands: [Build.self, Check.self, Serve.self, Init.self]
    )

    /// No command: a usage error (exit 2), as a misspelt one is. Printing the help with exit 0
    /// let a CI step that lost its "build" pass without building.
    func run() throws {
        throw ValidationError("name a command: build, check, serve or init")
    }

    /// Exit statuses (README.md, "Using it"): 0 built, 1 input errors, 2 usage or config error, 3 I/O failure.
    static func main() {
        sitegen_return_freed_memory()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as BuildFailure {
            Foundation.exit(failure.exitStatus)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)   // --help, --version
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}

struct SiteOptions: ParsableArguments {
    @Option(name: .long, help: "The site configuration file.")
    var config = "site.yml"

    @Flag(name: .long, help: "Print each stage with its duration.")
    var verbose = false

    @Flag(name: .long, help: "Print only errors and warnings (no summary line).")
    var quiet = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
    }
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Build the site into the output folder.")

    @OptionGroup var site: SiteOptions

    @OptionGroup var built: BuiltSiteOptions

    @Option(name: .long, help: ArgumentHelp("After a successful build, write the output paths it added, changed and removed to this file (A/M/D path, one a line).", valueName: "file"))
    var changes: String?

    /// Usage errors, checked while the build's usage line can still be printed with them.
    func validate() throws {
        if changes?.isEmpty == true { throw ValidationError("--changes needs a file name") }
    }

    func run() throws {
        var options = built.options(config: site.config)
        options.changesFile = changes.map { URL(fileURLWithPath: $0) }
        try runBuild(options, verbose: site.verbose, quiet: site.quiet)
    }
}

/// What decides the site a build makes, besides site.yml: `check` takes them too, so that CI
/// checks the very configuration it then builds.
struct BuiltSiteOptions: ParsableArguments {
    @Option(name: .long, help: "Output folder (overrides site.yml).")
    var output: String?

    @Option(name: .long, help: "Build date for tip rotation, YYYY-MM-DD; also the build time when no input holds a date.")
    var date: String?

    // Unconditional: "-1" is the seed's (invalid) value, not a missing one.
    @Option(name: .long, parsing: .unconditional, help: "Seed for the tip permutation (0 to 18446744073709551615).")
    var seed: UInt64?

    func validate() throws {
        if let date, Self.parsed(date) == nil { throw ValidationError("--date must be a date such as 2026-06-12") }
        if output?.isEmpty == true { throw ValidationError("--output needs a folder") }
    }

    static func parsed(_ date: String) -> Date? {
        date.count == 10 ? ExportDateReader(timeZone: .gmt, numericDates: .reference).parse(date) : nil
    }

    func options(config: String) -> BuildOptions {
        var options = BuildOptions(configFile: URL(fileURLWithPath: config))
        options.output = output.map { URL(fileURLWithPath: $0) }
        options.seed = seed
        options.date = date.flatMap(Self.parsed)
        return options
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read and validate everything; write nothing.")

    @OptionGroup var site: SiteOptions
    @OptionGroup var built: BuiltSiteOptions

    func run() throws {
        var options = built.options(config: site.config)
        options.write = false
        try runBuild(options, verbose: site.verbose, quiet: site.quiet)
    }
}

/// Runs the pipeline; BuildReporter prints progress, diagnostics and the summary.
func runBuild(_ options: BuildOptions, verbose: Bool, quiet: Bool = false) throws {
    var options = options
    options.removesReplacedSiteInBackground = true
    let log = DiagnosticLog(keepsEvery: verbose)
    let reporter = BuildReporter.forProcess(verbosity: quiet ? .quiet : verbose ? .verbose : .normal,
                                            environment: ProcessInfo.processInfo.environment)
    var builder = SiteBuilder(options: options, log: log)
    builder.progress = { stage in reporter.stageStarted(stage) }
    do {
        let report = try builder.run()
        reporter.finish(.success(report), log: log)
    } catch {
        reporter.finish(.failure(error), log: log)
        throw error
    }
}
