import SitegenCore

/// A value a template renders: a Swift struct whose declared fields are the only names its
/// templates may use. The fields produce the dictionary the renderer reads, and describe
/// (as a `ContextShape`) what TemplateSet checks every template against when it loads, so a
/// misspelt name is a build error rather than empty text (docs/templates.md).
package protocol TemplateModel: Sendable {
    static var fields: TemplateFields<Self> { get }
}

extension TemplateModel {
    /// What the renderer reads: one entry per present field.
    package var context: [String: Any] { Self.fields.context(of: self) }
}

/// The names a template may use in one context, and what each holds.
public struct ContextShape: Sendable {
    public let variables: [String: TemplateVariable]
}

/// What a template variable holds, which decides the tags that can use it.
public indirect enum TemplateVariable: Sendable {
    /// A string or number: `{{name}}`. Optional ones are absent on some pages, and are
    /// tested with `{{#name}}…{{/name}}` / `{{^name}}…{{/name}}`.
    case text(optional: Bool)
    /// True or false: `{{#name}}…{{/name}}`, `{{^name}}…{{/name}}`.
    case flag
    /// Strings, each `{{.}}` inside `{{#name}}…{{/name}}`; may be empty.
    case texts
    /// HTML that sitegen made safe (a field named …HTML): the only text `{{{name}}}` and
    /// `{{&name}}` may write without escaping. Always optional.
    case markup
    /// Pieces of such HTML, each `{{{.}}}` inside `{{#name}}…{{/name}}`.
    case markups
    /// A nested context: `{{name.key}}`, or `{{#name}}…{{/name}}` with its keys in scope.
    case object(ContextShape, optional: Bool)
    /// Nested contexts, one per item of `{{#name}}…{{/name}}`; may be empty.
    case list(ContextShape)

    package var optional: TemplateVariable {
        switch self {
        case .text: return .text(optional: true)
        case .object(let shape, _): return .object(shape, optional: true)
        case .flag, .texts, .markup, .markups, .list: return self
        }
    }
}

/// A model's fields in the order they are put into its context.
package struct TemplateFields<Model>: Sendable {
    package let shape: ContextShape
    private let fields: [TemplateField<Model>]

    package init(_ fields: [TemplateField<Model>]) {
        self.fields = fields
        var variables: [String: TemplateVariable] = [:]
        for field in fields {
            for (name, variable) in field.variables {
                precondition(variables.updateValue(variable, forKey: name) == nil, "template variable \(name) is declared twice")
            }
        }
        shape = ContextShape(variables: variables)
    }

    package func context(of model: Model) -> [String: Any] {
        var context: [String: Any] = [:]
        context.reserveCapacity(fields.count)
        put(model, into: &context)
        return context
    }

    package func put(_ model: Model, into context: inout [String: Any]) {
        for field in fields { field.put(model, &context) }
    }
}

/// One entry of a model's context (or, with `fields(of:)`, all of a nested model's).
/// Absent optional values are left out of the context, as Mustache expects.
package struct TemplateField<Model>: Sendable {
    package let variables: [(String, TemplateVariable)]
    package let put: @Sendable (Model, inout [String: Any]) -> Void

    /// A string for `{{name}}`. One holding right-to-left script or direction controls is
    /// isolated (`BidiIsolation`), so it keeps its own direction on the page: every string a
    /// template shows passes here, and only text from the exports can hold such letters.
    package static func text(_ name: String, _ value: @escaping @Sendable (Model) -> String) -> Self {
        Self(variables: [(name, .text(optional: false))]) { model, context in context[name] = BidiIsolation.isolated(value(model)) }
    }

    package static func text(_ name: String, _ value: @escaping @Sendable (Model) -> String?) -> Self {
        Self(variables: [(name, .text(optional: true))]) { model, context in
            if let text = value(model) { context[name] = BidiIsolation.isolated(text) }
        }
    }

    /// Plain text for metadata (`<title>`, a `<meta>` tag's `content`): never isolated, and
    /// with every direction isolate, control and mark taken out (`BidiIsolation.plain`), since
    /// the app showing it lays it out on its own and some show those characters as boxes.
    package static func plain(_ name: String, _ value: @escaping @Sendable (Model) -> String) -> Self {
        Self(variables: [(name, .text(optional: false))]) { model, context in context[name] = BidiIsolation.plain(value(model)) }
    }

    /// An address for `href`, `src` or `content`: written as it is, never isolated, since a
    /// mark inside a URL would change it.
    package static func link(_ name: String, _ value: @escaping @Sendable (Model) -> String) -> Self {
        Self(variables: [(name, .text(optional: false))]) { model, context in context[name] = value(model) }
    }

    package static func link(_ name: String, _ value: @escaping @Sendable (Model) -> String?) -> Self {
        Self(variables: [(name, .text(optional: true))]) { model, context in
            if let text = value(model) { context[name] = text }
        }
    }

    /// HTML that sitegen made safe, for `{{{nameHTML}}}`: written as it is, its paragraphs
    /// given their own direction by the stylesheet (`.prose`).
    package static func markup(_ name: String, _ value: @escaping @Sendable (Model) -> String?) -> Self {
        precondition(name.hasSuffix("HTML"), "a field of HTML is named …HTML (docs/templates.md)")
        return Self(variables: [(name, .markup)]) { model, context in
            if let text = value(model) { context[name] = text }
        }
    }

    package static func number(_ name: String, _ value: @escaping @Sendable (Model) -> Int) -> Self {
        Self(variables: [(name, .text(optional: false))]) { model, context in context[name] = value(model) }
    }

    package static func number(_ name: String, _ value: @escaping @Sendable (Model) -> Int?) -> Self {
        Self(variables: [(name, .text(optional: true))]) { model, context in
            if let number = value(model) { context[name] = number }
        }
    }

    package static func flag(_ name: String, _ value: @escaping @Sendable (Model) -> Bool) -> Self {
        Self(variables: [(name, .flag)]) { model, context in context[name] = value(model) }
    }

    package static func texts(_ name: String, _ value: @escaping @Sendable (Model) -> [String]) -> Self {
        Self(variables: [(name, .texts)]) { model, context in context[name] = BidiIsolation.isolated(value(model)) }
    }

    /// Pieces of HTML that sitegen rendered, for `{{#name}}{{{.}}}{{/name}}` (a trip view's
    /// cards): written as they are, never isolated, since a mark around an element would be
    /// text where HTML allows none. Their own text was isolated when they were rendered.
    package static func markupList(_ name: String, _ value: @escaping @Sendable (Model) -> [String]) -> Self {
        Self(variables: [(name, .markups)]) { model, context in context[name] = value(model) }
    }

    package static func object<Nested: TemplateModel>(_ name: String, _ value: @escaping @Sendable (Model) -> Nested) -> Self {
        Self(variables: [(name, .object(Nested.fields.shape, optional: false))]) { model, context in
            context[name] = value(model).context
        }
    }

    package static func object<Nested: TemplateModel>(_ name: String, _ value: @escaping @Sendable (Model) -> Nested?) -> Self {
        Self(variables: [(name, .object(Nested.fields.shape, optional: true))]) { model, context in
            if let nested = value(model) { context[name] = nested.context }
        }
    }

    package static func list<Item: TemplateModel>(_ name: String, _ value: @escaping @Sendable (Model) -> [Item]) -> Self {
        Self(variables: [(name, .list(Item.fields.shape))]) { model, context in
            context[name] = ContextList(value(model))
        }
    }

    /// Every field of a nested model, at this level: a model that extends another
    /// (an option's card is a trip card with two more facts).
    package static func fields<Nested: TemplateModel>(of value: @escaping @Sendable (Model) -> Nested) -> Self {
        Self(variables: Nested.fields.shape.variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) { model, context in
            Nested.fields.put(value(model), into: &context)
        }
    }

    /// The same for a value absent on some pages, whose variables are then optional: for a
    /// partial that reads them from the page's own context (`partials/calendar-links`).
    package static func fields<Nested: TemplateModel>(of value: @escaping @Sendable (Model) -> Nested?) -> Self {
        let variables = Nested.fields.shape.variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value.optional) }
        return Self(variables: variables) { model, context in
            if let nested = value(model) { Nested.fields.put(nested, into: &context) }
        }
    }
}

/// A list field's items, each made into a context only when the renderer reaches it: the
/// home page of a 10,000-poll site held 10,000 row contexts at once, 4.6 MB, to write them
/// one after the other (docs/performance.md).
package struct ContextList {
    package let count: Int
    private let item: (Int) -> [String: Any]

    package init<Item: TemplateModel>(_ items: [Item]) {
        count = items.count
        item = { items[$0].context }
    }

    package subscript(index: Int) -> [String: Any] { item(index) }
}
