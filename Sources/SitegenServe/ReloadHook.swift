import Foundation

/// The live-reload script of `sitegen serve`.
///
/// It is added to HTML responses as they are served and never written to the output folder:
/// the built site stays free of JavaScript (docs/pages.md, "Every page"). The page polls the build token and
/// reloads when a successful rebuild has changed it.
public enum ReloadHook {
    /// Answers the current build token as plain text.
    public static let endpoint = "/__sitegen/build"
    /// The attribute that marks the injected script (tests look for it).
    public static let marker = "data-sitegen-serve"

    public static func script(token: String) -> String {
        """
        <script \(marker)>(function () {
          var served = "\(token)";
          setInterval(function () {
            fetch("\(endpoint)", { cache: "no-store" })
              .then(function (response) { return response.ok ? response.text() : served; })
              .then(function (token) { if (token !== served) { location.reload(); } })
              .catch(function () {});
          }, 1000);
        })();</script>

        """
    }

    /// `html` with the script inserted before its last `</body>` (any case), or appended when it has none.
    public static func inject(into html: Data, token: String) -> Data {
        let bytes = [UInt8](html)
        let script = Array(script(token: token).utf8)
        guard let bodyEnd = lastIndex(of: Array("</body".utf8), in: bytes) else { return Data(bytes + script) }
        return Data(bytes[..<bodyEnd] + script + bytes[bodyEnd...])
    }

    /// The last position of the ASCII `needle` in `bytes`, ignoring ASCII case.
    static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        let lowercase = { (byte: UInt8) in byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        for start in stride(from: bytes.count - needle.count, through: 0, by: -1)
        where needle.indices.allSatisfy({ lowercase(bytes[start + $0]) == needle[$0] }) {
            return start
        }
        return nil
    }
}
