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
    let pollKeys: [String]
    /// The last build's keys (BuildRecord.pollKeys): its sitemap's among them.
    var lastKeys: Set<String> = []
    /// `--changes FILE`: where the added, changed and removed paths go once published.
    var changesFile: URL?

    /// Writes the `--changes` list beside its file, before the site is published: a list that
    /// cannot be written stops the build with the site untouched. Written after publishing,
    /// as it was, a failure left the site changed and the list lost for good: the next build
    /// had nothing to report. `placeChanges` renames it into place once the site is published,
    /// so a deploy step never reads half a list, nor one for a site that was not published.
    static func stageChanges(_ lines: [String], for url: URL) throws(OutputError) -> URL {
        let staged = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).sitegen-tmp")
        do {
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: staged)
        } catch {
            throw OutputError(message: "\(displayPath(url)): cannot write the list of changes: \(error.localizedDescription); nothing was published")
        }
        return staged
    }

    static func placeChanges(_ staged: URL, at url: URL) throws(OutputError) {
        guard rename(staged.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(staged.path)
            throw OutputError(message: "\(displayPath(url)): cannot write the list of changes: \(reason)")
        }
    }

    /// Writes the `--changes` file whole or not at all (a build with nothing to publish).
    static func writeChanges(_ lines: [String], to url: URL) throws(OutputError) {
        try placeChanges(try stageChanges(lines, for: url), at: url)
    }

    /// Returns how many files the published site has.
    func run(_ plan: Plan, _ computed: Computed, report: BuildReport) throws(BuildFailure) -> Int {
        let config = computed.site.config
        do throws(OutputError) {
            var keys = pollKeys
            if let sitemapPages = plan.sitemapPages {
                // The sitemap lists the paths of the pages, with baseURL and the URL style of
                // site.yml (in the poll context). When both are the last build's, it is too:
                // a rebuild after one ballot keeps it without reading back 140,000 paths.
                let key = "sitemap " + fingerprint.siteContext
                keys.append(key)
                let paths = Sitemap.paths(pages: sitemapPages)
                let kept = lastKeys.contains(key) && output.hasLastBuildsPaths(besides: paths + [Manifest.path])
                if !(kept ? try output.reuse(paths) : false) {
                    try writeSitemap(pages: sitemapPages, computed)
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
            // With the changes of a killed build this one finished, which never wrote its list.
            let changes = changesFile == nil ? [] : OutputChanges.merged(carried: output.carriedChanges, with: try output.changes())
            output.noteChanges(changes)
            var record = BuildRecord(fingerprint: fingerprint.value, pages: report.pages, files: files, polls: report.polls,
                                     ballots: report.ballots, diagnostics: log.all, omissions: log.omissions, pollKeys: keys.sorted())
            record.inputHashes = fingerprint.inputHashes
            let staged = try changesFile.map { (url) throws(OutputError) in try Self.stageChanges(changes, for: url) }
            do {
                try output.publish(record) { () throws(OutputError) in
                    if let staged, let changesFile { try Self.placeChanges(staged, at: changesFile) }
                }
            } catch {
                if let staged { unlink(staged.path) }
                throw error
            }
            return files
        } catch {
            throw .io(error.message)
        }
    }

    /// Writes the sitemap of `pages` listed pages from the sorted list of written files.
    private func writeSitemap(pages: Int, _ computed: Computed) throws(OutputError) {
        var outputs = try output.writtenFiles()
        do {
            _ = try Sitemap.write(count: pages, links: computed.kit.links, listPolls: computed.site.config.listPolls, outputs: &outputs) {
                path, produce throws in try output.writeStreamed(path, produce)
            }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError(message: "\(displayPath(computed.site.config.output)): cannot read back the list of written files: \(error.localizedDescription)")
        }
    }
}
