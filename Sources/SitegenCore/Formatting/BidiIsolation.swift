/// Text from the exports shown on a left-to-right page, kept in its own direction.
///
/// A browser orders a line by the Unicode bidirectional algorithm over the whole paragraph,
/// so a name written right to left is not contained by the words around it: a Hebrew title
/// ending in "?" shows the "?" on its right, a route of two Arabic city names joined by "→"
/// reads backwards (the arrow pointing from the second to the first), and a name holding an
/// unclosed right-to-left override (U+202E) reverses the rest of the sentence, points and
/// all. Wrapped in FIRST STRONG ISOLATE (U+2068) … POP DIRECTIONAL ISOLATE (U+2069), the
/// name takes its direction from its own first letter, is ordered as one unit among the
/// words around it, and ends every embedding or override it opened (docs/pages.md,
/// "Right-to-left text"). Text without a right-to-left letter or a direction control is
/// left as it is, byte for byte.
package enum BidiIsolation {
    static let firstStrongIsolate: Unicode.Scalar = "\u{2068}"
    static let popDirectionalIsolate: Unicode.Scalar = "\u{2069}"

    /// `text` isolated when it needs to be (`needsIsolation`), else `text` itself.
    /// Isolates inside the text are balanced first: a stray POP DIRECTIONAL ISOLATE would
    /// otherwise close this one early, and an unclosed isolate would take this one's end.
    package static func isolated(_ text: String) -> String {
        guard needsIsolation(text) else { return text }
        var wrapped = String.UnicodeScalarView()
        wrapped.append(firstStrongIsolate)
        var open = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2066...0x2068: open += 1
            case 0x2069 where open == 0: continue
            case 0x2069: open -= 1
            default: break
            }
            wrapped.append(scalar)
        }
        if let mark = trailingMark(text) { wrapped.append(mark) }
        for _ in 0...open { wrapped.append(popDirectionalIsolate) }
        return String(wrapped)
    }

    /// The mark that keeps a text's closing punctuation with the words it ends, or nil. An
    /// isolate takes its direction from its first letter, and the Unicode algorithm gives what
    /// follows its last letter that direction too: "🏟️ نهاية الأسبوع — which September
    /// weekend?" is right to left, so its "?" went to the far left, "?which September
    /// weekend". A LEFT-TO-RIGHT MARK after the "?" keeps it after "weekend"; a RIGHT-TO-LEFT
    /// MARK does the same for "Texas trip — מי בא?". Only for text whose last letter runs the
    /// other way from its first and is followed by punctuation (emoji and symbols after it
    /// are left where the algorithm puts them), without direction controls of its own (whose
    /// reach is theirs to decide).
    static func trailingMark(_ text: String) -> Unicode.Scalar? {
        var first: Bool?, last: Bool?, punctuated = false
        for scalar in text.unicodeScalars {
            if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) { return nil }
            if let rightToLeft = strongDirection(scalar) {
                if first == nil { first = rightToLeft }
                last = rightToLeft
                punctuated = false
            } else if isPunctuation(scalar) {
                punctuated = true
            }
        }
        guard punctuated, let first, let last, first != last else { return nil }
        return last ? "\u{200F}" : "\u{200E}"
    }

    private static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// true for a letter written right to left (or a RIGHT-TO-LEFT or ARABIC LETTER MARK),
    /// false for one written left to right (or a LEFT-TO-RIGHT MARK), nil for digits,
    /// punctuation, symbols, emoji and spaces: near enough to the Unicode classes R/AL and L
    /// for finding a text's first and last letter.
    private static func strongDirection(_ scalar: Unicode.Scalar) -> Bool? {
        switch scalar.value {
        case 0x200E: return false
        case 0x200F: return true
        default: break
        }
        if isRightToLeftOrControl(scalar.value) { return scalar.properties.numericType == nil ? true : nil }
        return scalar.properties.isAlphabetic ? false : nil
    }

    /// `text` for plain-text metadata (`<title>`, `og:title`, a description, an image's alt
    /// text): without the isolates and marks sitegen adds for the page, and without any
    /// direction control or mark of the text's own. A chat app or search engine shows the
    /// line on its own, taking its direction from its first letter, and some show these
    /// invisible characters as boxes; an override left open would run on over what follows.
    package static func plain(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isDirectionControl) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !isDirectionControl($0) })
        return String(kept)
    }

    private static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Each of `names` isolated: for names joined into one line ("A → B", "A and B").
    package static func isolated(_ names: [String]) -> [String] {
        names.contains(where: needsIsolation) ? names.map(isolated) : names
    }

    /// Whether `text` holds, outside the isolates it already has, a letter of a right-to-left
    /// script or a control that changes the direction of what follows it (an isolate left
    /// open or a stray end of one counts). So a line joined from isolated names ("A → B") is
    /// not isolated again.
    package static func needsIsolation(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(needsIsolation(utf8:))
    }

    /// The same over valid UTF-8. Every page's every string passes here, and most are ASCII
    /// with an "–" or a "→": ASCII is skipped eight bytes at a time, and only characters from
    /// U+0580 up, whose first byte is 0xD6 or more, are decoded (continuation bytes never
    /// reach 0xC0).
    static func needsIsolation(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = UnsafeRawPointer(bytes.baseAddress) else { return false }
        var depth = 0, index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count, start.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            let lead = bytes[index]
            guard lead >= 0xD6 else {
                index += 1
                continue
            }
            let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard index + length <= bytes.count else { return false }
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            index += length
            switch value {
            case 0x2066...0x2068: depth += 1
            case 0x2069:
                if depth == 0 { return true }
                depth -= 1
            default:
                if depth == 0 && isRightToLeftOrControl(value) { return true }
            }
        }
        return depth > 0
    }

    private static func isRightToLeftOrControl(_ value: UInt32) -> Bool {
        switch value {
        case 0x0590...0x08FF,    // Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, Arabic Extended
             0xFB1D...0xFDFF,    // Hebrew and Arabic presentation forms A
             0xFE70...0xFEFE,    // Arabic presentation forms B
             0x10800...0x10FFF,  // Cypriot, Phoenician, Kharoshthi, Old Hungarian, Hanifi Rohingya, Yezidi, Sogdian, …
             0x1E800...0x1EFFF,  // Mende Kikakui, Adlam, Arabic mathematical letters
             0x200E...0x200F,    // left-to-right and right-to-left marks
             0x202A...0x202E:    // embeddings, overrides and their pop
            return true
        default:
            return false
        }
    }
}
