/// The variables of `partials/tip.mustache`: one planning tip.
struct TipItem: TemplateModel {
    var id: String
    var icon: String
    var title: String
    var subtitle: String
    /// The category's title.
    var category: String

    static let fields = TemplateFields<Self>([
        .text("id", \.id), .text("icon", \.icon), .text("title", \.title), .text("subtitle", \.subtitle),
        .text("category", \.category),
    ])
}

/// The variables of `tips.mustache` (TipsPages).
struct TipsPageModel: PageModel {
    static let template = "tips", kind = "the tips page"

    /// "Featured for June 15, 2026", or "Featured tips" with a fixed rotation.
    var featuredHeading: String
    var featured: [TipItem]
    /// "120 tips"
    var total: String
    var categories: [Category]

    struct Category: TemplateModel {
        var id: String
        var title: String
        var icon: String
        var count: String
        var tips: [TipItem]

        static let fields = TemplateFields<Self>([
            .text("id", \.id), .text("title", \.title), .text("icon", \.icon), .text("count", \.count), .list("tips", \.tips),
        ])
    }

    static let fields = TemplateFields<Self>([
        .text("featuredHeading", \.featuredHeading),
        .list("featured", \.featured),
        .text("total", \.total),
        .list("categories", \.categories),
    ])
}
