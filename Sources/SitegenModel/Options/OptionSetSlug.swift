import Foundation
import SitegenCore

/// The URL segment of an option set: lower-case ASCII letters, digits and single hyphens,
/// at most 60 characters, never empty (docs/exports.md, "Trip-option sets").
///
/// An address depends on its set alone, never on the other sets: a link shared in a group
/// chat must keep opening the same set when the planner exports another one.
public enum OptionSetSlug {
    public static let maxLength = 60

    /// What an address was made from.
    public enum Origin: Sendable, Equatable {
        case id, title
        /// The title leaves no letter or digit (emoji, Arabic, Japanese): a hash of it.
        case titleHash
    }

    /// The slug of the id; else, when the id leaves no letter or digit, of the title; else
    /// `set-` and the first 8 hex digits of the SHA-256 of the title (NFC, UTF-8).
    public static func address(id: String?, title: String) -> (slug: String, origin: Origin) {
        if let id {
            let slug = slug(id)
            if !slug.isEmpty { return (slug, .id) }
        }
        let slug = slug(title)
        return slug.isEmpty ? (hashed(title), .titleHash) : (slug, .title)
    }

    /// `set-1a2b3c4d`: the title's text, not its place among the sets (numbering by place
    /// moved every later set when one was added). NFC, so that "é" typed as e + U+0301 and
    /// as one letter give one address; spaces around the words and between them count as a
    /// space, as they do in a slug, so a re-export that added a trailing space keeps the
    /// address already shared.
    package static func hashed(_ title: String) -> String {
        let words = title.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "set-" + sha256Hex(Array(words.utf8)).prefix(8)
    }

    /// "Café Crème & Co." → "cafe-creme-and-co"; "日本" → "".
    public static func slug(_ text: String) -> String {
        var slug = spelled(text)
        if slug.count > maxLength {
            slug = String(slug.prefix(maxLength))
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug
    }

    /// The slug before it is cut to `maxLength`.
    private static func spelled(_ text: String) -> String {
        // Decomposed, accents go ("é" → "e"), and letters and digits written in a
        // compatibility form are spelt with those they stand for ("ﬁ" → "fi", "Ǆ" → "dž" →
        // "dz", "Ａ" → "a", "²" → "2"), where folding dropped them; symbols ("™", "№") stay
        // separators. Letters without a decomposition are spelt out below.
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if !scalar.isASCII && isLetterOrDigit(scalar) {
                scalars.append(contentsOf: String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        let decomposed = String(scalars).lowercased()
        var slug = ""
        var pendingHyphen = false
        for scalar in decomposed.unicodeScalars {
            let piece: String
            switch scalar {
            case _ where scalar.properties.generalCategory == .nonspacingMark: continue
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
        return slug
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Latin letters that have no decomposition.
    package static let transliterations: [Unicode.Scalar: String] = [
        "æ": "ae", "œ": "oe", "ø": "o", "ß": "ss", "đ": "d", "ð": "d", "ħ": "h", "ı": "i",
        "ł": "l", "þ": "th", "ŋ": "n", "ŧ": "t",
    ]

    /// Why the set's address is not its id in lower case, for a warning at the id; nil when
    /// it is. `shown` is the id as the warning quotes it. The app builds links from the id
    /// it exported, and on a case-sensitive host another spelling is a 404.
    public static func rewrittenId(_ id: String, shown: String, slug: String, origin: Origin) -> String? {
        guard slug != id.lowercased() else { return nil }
        let spelled = spelled(id)
        let rule: String
        if spelled == id.lowercased() {
            rule = "at most \(maxLength) characters"
        } else if spelled.count > maxLength {
            rule = "only a-z, 0-9 and single hyphens, at most \(maxLength) characters"
        } else {
            rule = "only a-z, 0-9 and single hyphens"
        }
        let madeFrom = origin == .id ? "" : ", made from the title"
        return "id \(shown) is published at options/\(slug)/\(madeFrom): an address holds \(rule)"
    }

    /// Reports each set's warnings, and every address used twice, at the value it was made
    /// from, naming where the first set's value is.
    public static func report(_ sets: [TripOptionSet], log: DiagnosticLog) {
        var first: [String: TripOptionSet] = [:]
        for set in sets {
            set.warnings.forEach(log.add)
            guard let earlier = first[set.slug] else {
                first[set.slug] = set
                continue
            }
            let address = set.addressLocation
            let used = earlier.addressLocation.source
            log.add(address.source.diagnostic(.error, field: address.path,
                "option set address options/\(set.slug)/ is also used by \(quoted(earlier.title)) (\(used.file):\(used.line)); give one of them a different id"))
        }
    }
}
