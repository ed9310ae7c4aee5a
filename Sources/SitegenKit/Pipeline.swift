/// The stages of a build, in the order they run. Each is a type in Stages/ with its
/// input and output:
///
///     config   BuildOptions → Setup      site.yml; the site output opened (or "nothing changed")
///     read     Setup → Inputs            templates, pages, exports; polls streamed (below)
///     check    Inputs → Inputs           checks across exports; stops on any input error
///     compute  Inputs → Computed         build time, tips, the site model
///     plan     Computed → Plan           every other file's path and how to make it
///     render   Plan → (files written)    rendered in parallel into the site output
///     publish  Plan → file count         sitemap, manifest.json, the swap, the build record
///
/// Polls are most of a site and cannot all be held at once, so they stream through the
/// same steps inside the read stage: each poll export file is read, and each of its polls
/// is counted (ComputeStage.count), planned (PlanStage.files) and rendered (RenderStage)
/// before the next file is read; only its summary stays for the later stages.
enum PipelineStage: CaseIterable, Sendable {
    case config, read, check, compute, plan, render, publish

    /// The stages a run goes through: `sitegen check` stops after planning.
    static func list(writing: Bool) -> [PipelineStage] {
        writing ? allCases : [.config, .read, .check, .compute, .plan]
    }
}

/// Runs the stages in list order and reports each as it starts (BuildReporter numbers
/// them "[4/7]" and, with `--verbose`, times them).
struct StageDriver {
    let stages: [PipelineStage]
    let progress: (BuildStage) -> Void
    private var next = 0

    init(writing: Bool, progress: @escaping (BuildStage) -> Void) {
        stages = PipelineStage.list(writing: writing)
        self.progress = progress
    }

    /// Runs `stage`, which must be the next in the list, reported as `name`.
    mutating func run<Output>(_ stage: PipelineStage, _ name: String,
                              _ body: () throws(BuildFailure) -> Output) throws(BuildFailure) -> Output {
        precondition(next < stages.count && stages[next] == stage, "\(stage) runs out of order")
        next += 1
        progress(BuildStage(number: next, count: stages.count, name: name))
        return try body()
    }
}
