import CCairo
import Glibc
import SitegenCore

extension PreviewCard {
    /// Raise when the drawing or the encoding of cards changes (layout, sizes, fonts, PNG
    /// encoder): it is part of every key (BuildFingerprint), so no card drawn by older code is kept.
    package static let drawingVersion = 13

    /// What a card's pixels and bytes depend on besides its value: the drawing code's version,
    /// the size, the colours, the versions of the libraries that draw it (the PNG encoder is
    /// sitegen's own, RunDeflate) and the fonts they can draw with (CardFonts). An upgrade of
    /// any of them leaves the sitegen binary as it was, so BuildFingerprint hashes this too:
    /// a rebuild after one then draws every card again, as a build from nothing would.
    package static var drawingCode: String {
        let colours = CardDrawing.Colour.all.map { String($0, radix: 16) }.joined(separator: ",")
        return "sitegen cards \(drawingVersion); \(width)x\(height); colours \(colours); cairo \(String(cString: cairo_version_string()))"
            + "; pango \(String(cString: pango_version_string())); \(CardFonts.identity)"
    }
}

/// The fonts a card can be drawn with and the libraries that turn them into pixels, as one
/// line. DejaVu Sans draws Latin text, and Pango falls back on any font fontconfig offers for
/// other scripts and emoji (ShapedText), so a font package installed, upgraded or removed
/// changes cards without changing sitegen; without this line a rebuild kept the cards of the
/// old fonts while a build from nothing drew them with the new ones.
///
/// Each font is named by its file, face index, the font's own version (`head.fontRevision`),
/// size and modification time, and each fontconfig configuration file by its path, size and
/// modification time. Not the inode or change time: a fresh container that installs the
/// same packages (a CI run) gets new ones, while dpkg gives every file its package's time.
package enum CardFonts {
    package static let identity: String = {
        var lines = fontLines() + configurationLines()
        lines.sort()
        var freeType: FT_Library?
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        if FT_Init_FreeType(&freeType) == 0 {
            FT_Library_Version(freeType, &major, &minor, &patch)
            FT_Done_FreeType(freeType)
        }
        return "fonts \(lines.count) \(sha256Hex(Array(lines.joined(separator: "\n").utf8))); fontconfig \(FcGetVersion())"
            + "; freetype \(major).\(minor).\(patch); harfbuzz \(String(cString: hb_version_string()))"
            + "; pixman \(String(cString: pixman_version_string()))"
    }()

    /// Every font fontconfig offers (the system's and any the application added).
    private static func fontLines() -> [String] {
        guard let configuration = FcConfigGetCurrent() else { return [] }
        var lines: [String] = []
        for kind in [FcSetSystem, FcSetApplication] {
            guard let set = FcConfigGetFonts(configuration, kind)?.pointee, let fonts = set.fonts else { continue }
            for position in 0..<Int(set.nfont) {
                guard let pattern = fonts[position] else { continue }
                var file: UnsafeMutablePointer<FcChar8>?
                guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
                var index: Int32 = 0, version: Int32 = 0
                _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
                _ = FcPatternGetInteger(pattern, FC_FONTVERSION, 0, &version)
                let path = String(cString: file)
                lines.append("font \(path) \(index) \(version) \(stamp(path))")
            }
        }
        return lines
    }

    /// The configuration files fontconfig read: they choose which font falls back for which
    /// script and how fonts match names.
    private static func configurationLines() -> [String] {
        guard let configuration = FcConfigGetCurrent(), let files = FcConfigGetConfigFiles(configuration) else { return [] }
        defer { FcStrListDone(files) }
        var lines: [String] = []
        while let file = FcStrListNext(files) {
            let path = String(cString: file)
            lines.append("configuration \(path) \(stamp(path))")
        }
        return lines
    }

    private static func stamp(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "missing" }
        return "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }
}
