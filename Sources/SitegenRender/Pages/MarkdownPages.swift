import Foundation
import SitegenCore
import SitegenInput

/// A Markdown page from the `pages` folder of site.yml, published at `/SLUG/` (docs/site-config.md, "Markdown pages").
public struct MarkdownPage: Sendable, Equatable {
    /// The file name without `.md`; the page's address.
    public let slug: String
    public let frontMatter: FrontMatter
    public let markdown: String
    /// The file, for manifest.json.
    public let source: InputFile
    /// The file as diagnostics name it, and the line its Markdown starts on.
    package var file = ""
    package var bodyLine = 1

    public var path: String { slug + "/" }
}

/// Reads the `pages` folder and plans one `/SLUG/` page per `*.md` file.
package enum MarkdownPages {
    /// Top-level names of the site itself; a page there would replace part of the site.
    /// Fixed rather than taken from the planned files, so that adding a first convoy to a
    /// site never turns an existing page into an error.
    package static let reservedNames = SiteConfigLoader.siteTopLevelNames

    /// Pages are written by the site's owner, but a size cap still keeps a stray huge file
    /// from stalling cmark-gfm (docs/libraries.md, "cmark-gfm").
    package static let maxFileBytes = 1024 * 1024

    /// Every `*.md` file directly inside `folder`, by slug; a missing folder means no pages.
    /// Problems go to `log`, all of them, one per file.
    package static func load(_ folder: URL?, siteFolder: URL, log: DiagnosticLog) -> [MarkdownPage] {
        guard let folder else { return [] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            // Set in site.yml, so meant to exist: a misspelt folder published no page, silently.
            log.add(Diagnostic(.warning, file: displayPath(folder), field: "pages",
                               message: "site.yml names this pages folder, which does not exist; no page is published from it"))
            return []
        }
        guard isDirectory.boolValue else {
            log.error(displayPath(folder), "the pages path is not a folder")
            return []
        }
        // Links only inside the folder, no special files (issue #19).
        let listing = InputFolder.list(folder, recursive: false) { $0.hasSuffix(".md") }
        listing.problems.forEach(log.add)
        let names = listing.files.map(\.lastPathComponent)
        // manifest.json names inputs relative to the site folder, whatever the working directory.
        let base = siteFolder.standardizedFileURL.path, folderPath = folder.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        let relativeFolder = folderPath.hasPrefix(prefix) ? String(folderPath.dropFirst(prefix.count)) : folderPath
        let pageNames = names.filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
        // In parallel, like the exports: YAML parsing dominates with thousands of pages.
        let pages = ConcurrentResults<MarkdownPage>(count: pageNames.count)
        DispatchQueue.concurrentPerform(iterations: pageNames.count) { index in
            let name = pageNames[index]
            let url = folder.appendingPathComponent(name)
            let shown = displayPath(url)
            do {
                let bytes = try Data(contentsOf: url)
                guard bytes.count <= maxFileBytes else {
                    log.error(shown, "file is \(bytes.count) bytes; the limit for a page is \(maxFileBytes) bytes")
                    return
                }
                guard let text = String(data: bytes, encoding: .utf8) else {
                    log.error(shown, "not valid UTF-8 text")
                    return
                }
                let source = InputFile(path: relativeFolder + "/" + name, sha256: sha256Hex([UInt8](bytes)))
                pages[index] = try page(fileName: name, text: text, file: shown, source: source)
            } catch let error as FrontMatterError {
                error.diagnostics.forEach(log.add)
            } catch {
                // The listing has only regular files: this one could not be read.
                log.add(.unreadable(shown, "cannot read the page: \(Diagnostic.readFailure(url.path, error))"))
            }
        }
        return pages.values
    }

    /// One page from its file name and text; `file` is the path shown in diagnostics.
    package static func page(fileName: String, text: String, file: String, source: InputFile) throws(FrontMatterError) -> MarkdownPage {
        let slug = String(fileName.dropLast(".md".count))
        try checkSlug(slug, file: file)
        let document = try FrontMatterParser.parse(text, file: file)
        return MarkdownPage(slug: slug, frontMatter: document.frontMatter, markdown: document.body, source: source,
                            file: file, bodyLine: document.bodyLine)
    }

    /// The slug becomes a URL path segment: `[a-z0-9][a-z0-9-]{0,62}`, and not a name the site uses.
    package static func checkSlug(_ slug: String, file: String) throws(FrontMatterError) {
        func failure(_ message: String) -> FrontMatterError {
            FrontMatterError(diagnostic: Diagnostic(.error, file: file, line: 1, column: 1, message: message))
        }
        let bytes = Array(slug.utf8)
        let isLowerAlphanumeric = { (byte: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let valid = (1...63).contains(bytes.count) && isLowerAlphanumeric(bytes[0])
            && bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        guard valid else {
            let suggestion = suggestedSlug(slug).map { " (for example \($0).md)" } ?? ""
            throw failure("the file name \"\(slug).md\" cannot be a page address: use 1 to 63 lower-case letters, digits and hyphens, starting with a letter or digit\(suggestion)")
        }
        guard !reservedNames.contains(slug) else {
            let reserved = reservedNames.filter { !$0.contains(".") }.sorted().joined(separator: ", ")
            throw failure("the page address /\(slug)/ belongs to the site itself; rename the file (reserved: \(reserved))")
        }
    }

    /// "About Us" → "about-us", "Über uns" → "uber-uns"; nil when nothing usable is left.
    package static func suggestedSlug(_ name: String) -> String? {
        var slug = ""
        for scalar in name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        slug = String(slug.prefix(63))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty || reservedNames.contains(slug) ? nil : slug
    }

    /// Pages with `menu`, by it, then title, then slug (so equal titles keep one order).
    package static func navigation(_ pages: [MarkdownPage]) -> [RenderKit.NavigationItem] {
        pages.compactMap { page in page.frontMatter.menu.map { (page, $0) } }
            .sorted { a, b in
                if a.1 != b.1 { return a.1 < b.1 }
                if a.0.frontMatter.title != b.0.frontMatter.title { return a.0.frontMatter.title < b.0.frontMatter.title }
                return a.0.slug < b.0.slug
            }
            .map { RenderKit.NavigationItem(label: $0.0.frontMatter.title, path: $0.0.path) }
    }

    /// Pages without `menu`, by slug: the home page lists them, so that every page can be
    /// reached from it (docs/pages.md, "Every page").
    package static func outsideNavigation(_ pages: [MarkdownPage]) -> [MarkdownPage] {
        pages.filter { $0.frontMatter.menu == nil }.sorted { $0.slug < $1.slug }
    }

    package static func file(for page: MarkdownPage) -> PlannedFile {
        PlannedFile(path: SiteLinks.file(for: page.path)) { kit in
            let bodyHTML = kit.markdown(page.markdown, below: 1)
            let description = page.frontMatter.description
                ?? MarkdownRenderer.plainText(page.markdown).nilIfEmpty
                ?? "\(page.frontMatter.title) · \(kit.config.title)"
            let meta = PageMeta(path: page.path, title: page.frontMatter.title, description: description)
            return kit.page(MarkdownPageModel(title: page.frontMatter.title, bodyHTML: bodyHTML), meta: meta)
        }
    }
}

/// The variables of `page.mustache`: a Markdown page of the `pages` folder.
package struct MarkdownPageModel: PageModel {
    package static let template = "page", kind = "a Markdown page"

    package var title: String
    package var bodyHTML: String

    package static let fields = TemplateFields<Self>([.text("title", \.title), .markup("bodyHTML", \.bodyHTML)])
}


private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
