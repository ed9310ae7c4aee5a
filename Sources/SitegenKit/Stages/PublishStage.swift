import Foundation
import SitegenCore
import SitegenOutput
import SitegenRender

/// Stage 7: the files written last, from the sorted list of every file written — the
/// sitemap and manifest.json — and then the new site put in place of the old one, with the
/// record the next build compares its inputs with.
struct PublishStage {
    let output: any SiteOutput
    let fingerprint: BuildFingerprint
    let log: DiagnosticLog

    /// Returns how many files the published site has.
    func run(_ plan: Plan, _ computed: Computed, report: BuildReport) throws(BuildFailure) -> Int {
        let config = computed.site.config
        do throws(OutputError) {
            if let sitemapPages = plan.sitemapPages {
                var outputs = try output.writtenFiles()
                do {
                    _ = try Sitemap.write(count: sitemapPages, links: computed.kit.links, listPolls: config.listPolls, outputs: &outputs) {
                        path, produce throws in try output.writeStreamed(path, produce)
                    }
                } catch let error as OutputError {
                    throw error
                } catch {
                    throw OutputError(message: "\(displayPath(config.output)): cannot read back the list of written files: \(error.localizedDescription)")
                }
            }
            try output.writeManifest(Manifest(buildTime: computed.buildTime, inputs: fingerprint.inputs,
                                              hiddenPrefix: config.listPolls ? nil : "polls/"))
            // What was read must be what the manifest and the record name: an input edited
            // mid-build would otherwise be published under its old hash.
            if let changed = fingerprint.changedInputs().first {
                throw OutputError(message: "\(displayPath(changed)): changed while the build was reading it; nothing was published. Build again")
            }
            let files = output.fileCount
            try output.publish(BuildRecord(fingerprint: fingerprint.value, pages: report.pages, files: files, polls: report.polls,
                                           ballots: report.ballots, diagnostics: log.all, omissions: log.omissions))
            return files
        } catch {
            throw .io(error.message)
        }
    }
}
