import ArgumentParser
import Foundation
import SitegenKit

@main
struct Sitegen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Builds a private, read-only website from trip-planning exports.",
        version: SitegenVersion.current,
        subcommands: [Build.self, Check.self]
    )

    /// SPEC §7 exit statuses: 0 built, 1 input errors, 2 usage or config error, 3 I/O failure.
    static func main() {
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

    @Flag(name: .long, help: "Print each stage as it starts.")
    var verbose = false
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Build the site into the output folder.")

    @OptionGroup var site: SiteOptions

    @Option(name: .long, help: "Output folder (overrides site.yml).")
    var output: String?

    @Option(name: .long, help: "Build date for tip rotation, YYYY-MM-DD.")
    var date: String?

    @Option(name: .long, help: "Seed for the tip permutation.")
    var seed: UInt64?

    func run() throws {
        var options = BuildOptions(configFile: URL(fileURLWithPath: site.config))
        options.output = output.map { URL(fileURLWithPath: $0) }
        options.seed = seed
        if let date {
            guard let parsed = ExportDateReader(timeZone: .gmt, numericDates: .reference).parse(date), date.count == 10 else {
                throw ValidationError("--date must be a date such as 2026-06-12")
            }
            options.date = parsed
        }
        try runBuild(options, verbose: site.verbose)
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read and validate everything; write nothing.")

    @OptionGroup var site: SiteOptions

    func run() throws {
        var options = BuildOptions(configFile: URL(fileURLWithPath: site.config))
        options.write = false
        try runBuild(options, verbose: site.verbose)
    }
}

/// Runs the pipeline, prints diagnostics to stderr and the summary to stdout.
func runBuild(_ options: BuildOptions, verbose: Bool) throws {
    let log = DiagnosticLog()
    var builder = SiteBuilder(options: options, log: log)
    if verbose {
        builder.progress = { stage in FileHandle.standardError.write(Data("• \(stage)\n".utf8)) }
    }
    let printDiagnostics = {
        for diagnostic in log.all {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
    }
    do {
        let report = try builder.run()
        printDiagnostics()
        print(report.summary)
    } catch {
        printDiagnostics()
        switch error {
        case .configuration(let diagnostic):
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        case .io(let message):
            FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        case .inputErrors(let count):
            FileHandle.standardError.write(Data("\(Formatting.count(count, "error")) in the exports; nothing was written.\n".utf8))
        }
        throw error
    }
}
