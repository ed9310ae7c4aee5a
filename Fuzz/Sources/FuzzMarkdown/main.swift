import Foundation
import SitegenKit

/// Markdown through cmark-gfm (safe mode, GFM extensions) up to the field size limit.
/// Besides crashes, libFuzzer's -timeout catches pathological (super-linear) inputs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count <= ExportDecoder.maxMarkdownBytes else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let html = MarkdownRenderer.html(text)
    // Safe mode: raw HTML never survives.
    if html.contains("<script") { fatalError("raw <script> in rendered Markdown") }
    _ = MarkdownRenderer.plainText(text)
    return 0
}
