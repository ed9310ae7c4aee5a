/// The variables of `partials/tip.mustache`: one planning tip.
package struct TipItem: TemplateModel {
    package var id: String
    package var icon: String
    package var title: String
    package var subtitle: String
    /// The category's title.
    package var category: String

    package static let fields = TemplateFields<Self>([
        .text("id", \.id), .text("icon", \.icon), .text("title", \.title), .text("subtitle", \.subtitle),
        .text("category", \.category),
    ])
}

/// The variables of `tips.mustache` (TipsPages).
package struct TipsPageModel: PageModel {
    package static let template = "tips", kind = "the tips page"

    /// "Featured for June 15, 2026", or "Featured tips" with a fixed rotation.
    package var featuredHeading: String
    package var featured: [TipItem]
    /// "120 tips"
    package var total: String
    package var categories: [Category]

    package struct Category: TemplateModel {
        package var id: String
        package var title: String
        package var icon: String
        package var count: String
        package var tips: [TipItem]

        package static let fields = TemplateFields<Self>([
            .text("id", \.id), .text("title", \.title), .text("icon", \.icon), .text("count", \.count), .list("tips", \.tips),
        ])
    }

    package static let fields = TemplateFields<Self>([
        .text("featuredHeading", \.featuredHeading),
        .list("featured", \.featured),
        .text("total", \.total),
        .list("categories", \.categories),
    ])
}
