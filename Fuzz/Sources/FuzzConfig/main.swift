import Foundation
import SitegenKit

/// site.yml parsing over arbitrary text: every outcome is a config or a ConfigError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? SiteConfigLoader.parse(text, file: URL(fileURLWithPath: "/fuzz/site.yml"))
    return 0
}
