import Foundation
import SitegenCore

/// The URL segment of an option set: lower-case ASCII letters, digits and single hyphens,
/// at most 60 characters, never empty.
public enum OptionSetSlug {
    public static let maxLength = 60

    /// The slug of the first of `candidates` (the id, then the title) that leaves any
    /// letter or digit once transliterated; nil when none does.
    public static func derive(_ candidates: [String]) -> String? {
        for candidate in candidates {
            let slug = slug(candidate)
            if !slug.isEmpty { return slug }
        }
        return nil
    }

    /// "Café Crème & Co." → "cafe-creme-and-co"; "日本" → "".
    public static func slug(_ text: String) -> String {
        // Accents go ("é" → "e"); letters without a decomposition are spelled out below.
        let folded = text.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            let piece: String
            switch scalar {
            case "a"..."z", "0"..."9": piece = String(scalar)
            // "Wrigley's" reads better as "wrigleys" than "wrigley-s".
            case "'", "\u{2019}", "\u{02BC}": continue
            case "&": piece = "and"
            default:
                if let spelled = transliterations[scalar] {
                    piece = spelled
                } else {
                    pendingHyphen = true
                    continue
                }
            }
            if pendingHyphen && !slug.isEmpty { slug += "-" }
            pendingHyphen = false
            slug += piece
        }
        if slug.count > maxLength {
            slug = String(slug.prefix(maxLength))
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug
    }

    /// Latin letters that folding leaves as they are.
    package static let transliterations: [Unicode.Scalar: String] = [
        "æ": "ae", "œ": "oe", "ø": "o", "ß": "ss", "đ": "d", "ð": "d", "ħ": "h", "ı": "i",
        "ł": "l", "þ": "th", "ŋ": "n", "ŧ": "t",
    ]

    /// Numbers the option sets that have no slug ("options-N", N their 1-based position
    /// among all option sets) and reports every slug used twice, naming both files.
    public static func settle(_ sets: [TripOptionSet], log: DiagnosticLog) -> [TripOptionSet] {
        var settled = sets
        for index in settled.indices where settled[index].slug.isEmpty {
            settled[index].slug = "options-\(index + 1)"
        }
        var first: [String: TripOptionSet] = [:]
        for set in settled {
            guard let earlier = first[set.slug] else {
                first[set.slug] = set
                continue
            }
            log.add(set.source.diagnostic(.error, field: set.id == nil ? "title" : "id",
                "option set address options/\(set.slug)/ is also used by \"\(earlier.title)\" (\(earlier.source.file):\(earlier.source.line)); give one of them a different id"))
        }
        return settled
    }
}
