import CCairo

/// The rounded rectangles a rendering thread draws again and again (a poll card's rank
/// badges, bar tracks and bars), drawn from coverage masks of their ends.
///
/// cairo spends about 13 µs turning a 96×44 badge's path into coverage, whatever its size:
/// the arcs' edges, scanned 15 times a row. Compositing the same coverage kept in an A8
/// surface takes about 1.3 µs. A rounded rectangle on whole pixels is its two ends, each
/// `ceil(radius)` columns wide and the same whatever the width, and a rectangle between
/// them that covers its pixels whole: so the ends are kept as masks, by height and radius,
/// and the middle is filled (bars of every length share two masks).
///
/// A shape that comes back card after card at the same size (the badges and the bar tracks)
/// is kept whole as well, and drawn with one call instead of three: each cairo call costs
/// about 2 µs before any pixel is touched, and a card has a dozen such shapes (about 2% of
/// a card's time, Benchmarks/CardBench). Its mask is the same rounded rectangle's coverage, so
/// it gives the pixels its ends and middle give (PreviewTests).
///
/// A shape placed on whole pixels with a whole width and height (at most 64 pixels high,
/// at least its two ends wide) is always drawn from masks, and every other one always from its
/// path, so a card's pixels never depend on what was drawn before it. (Filling a path and
/// compositing masks can round a few edge pixels differently, and so can the same path
/// filled in bands that start on other rows; a mask moved by whole pixels gives the same
/// pixels wherever it is.) Each canvas, one per rendering thread, keeps its masks, attached
/// to its cairo context: nothing is shared between threads. A cairo context without them
/// (or past `limit` ends) makes the masks it needs and drops them.
final class ShapeMasks {
    /// A rounded rectangle's end: its height, its radius, and which end.
    struct End: Hashable {
        let height: Int, radius: Double, isLeft: Bool
        var width: Int { Int(radius.rounded(.up)) }
    }

    /// A whole rounded rectangle on whole pixels.
    struct Whole: Hashable {
        let width: Int, height: Int, radius: Double
    }

    private var masks: [End: OpaquePointer] = [:]
    /// Masks kept at most: a card has a few such shapes, and they repeat from card to card.
    private static let limit = 64
    private var wholes: [Whole: OpaquePointer] = [:]
    /// Whole shapes kept at most, and their largest area (a bar track is 956 × 14): at most
    /// 512 KB a canvas. The first ones met are kept; bars, whose lengths vary, are drawn from
    /// their ends once these are taken.
    private static let wholeLimit = 32, wholeArea = 16_384

    deinit {
        for mask in masks.values { cairo_surface_destroy(mask) }
        for mask in wholes.values { cairo_surface_destroy(mask) }
    }

    /// Draws a rounded rectangle filled with `cairo`'s source: from its whole mask, or its
    /// ends' masks and a rectangle, when it lies on whole pixels, else by filling its path.
    static func fillRoundedRect(_ cairo: OpaquePointer, _ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double) {
        guard let (left, right) = wholePixels(x, y, width, height, radius: radius) else {
            roundedRectPath(cairo, x, y, width, height, radius: radius)
            cairo_fill(cairo)
            return
        }
        let masks = of(cairo)
        if let whole = masks?.kept(Whole(width: Int(width), height: Int(height), radius: radius)) {
            cairo_mask_surface(cairo, whole, x, y)
            return
        }
        let end = Double(left.width)
        if width > 2 * end {
            cairo_rectangle(cairo, x + end, y, width - 2 * end, height)
            cairo_fill(cairo)
        }
        for (shape, at) in [(left, x), (right, x + width - end)] {
            if let mask = masks?.kept(shape) {
                cairo_mask_surface(cairo, mask, at, y)
            } else {
                let mask = makeMask(shape)
                cairo_mask_surface(cairo, mask, at, y)
                cairo_surface_destroy(mask)
            }
        }
    }

    /// The shape's two ends, if it is on whole pixels, at least as wide as its ends, and low
    /// enough that its arcs, not its area, are the cost (a tall box's inside is filled faster
    /// than a mask is read).
    private static func wholePixels(_ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double) -> (End, End)? {
        guard [x, y, width, height].allSatisfy({ $0.rounded() == $0 && abs($0) <= 4096 }), width > 0, height > 0,
              height <= 64, radius.isFinite, radius > 0, radius <= height / 2, 2 * radius.rounded(.up) <= width else { return nil }
        return (End(height: Int(height), radius: radius, isLeft: true), End(height: Int(height), radius: radius, isLeft: false))
    }

    /// The whole shape's mask, made the first time; nil past `wholeLimit` shapes or for a
    /// shape larger than `wholeArea`.
    private func kept(_ shape: Whole) -> OpaquePointer? {
        if let mask = wholes[shape] { return mask }
        guard wholes.count < Self.wholeLimit, shape.width * shape.height <= Self.wholeArea else { return nil }
        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(shape.width), Int32(shape.height))!
        let cairo = cairo_create(mask)!
        Self.roundedRectPath(cairo, 0, 0, Double(shape.width), Double(shape.height), radius: shape.radius)
        cairo_fill(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(mask)
        wholes[shape] = mask
        return mask
    }

    /// The end's mask, made the first time; nil past `limit` masks.
    private func kept(_ shape: End) -> OpaquePointer? {
        if let mask = masks[shape] { return mask }
        guard masks.count < Self.limit else { return nil }
        let mask = Self.makeMask(shape)
        masks[shape] = mask
        return mask
    }

    /// The end's coverage: a rounded rectangle four ends wide filled on a surface one end
    /// wide, placed so that the surface holds its left or right end.
    private static func makeMask(_ shape: End) -> OpaquePointer {
        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(shape.width), Int32(shape.height))!
        let cairo = cairo_create(mask)!
        let long = Double(4 * shape.width)
        roundedRectPath(cairo, shape.isLeft ? 0 : Double(shape.width) - long, 0, long, Double(shape.height), radius: shape.radius)
        cairo_fill(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(mask)
        return mask
    }

    private static func roundedRectPath(_ cairo: OpaquePointer, _ x: Double, _ y: Double, _ width: Double, _ height: Double, radius: Double) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x + width - radius, y + radius, radius, -.pi / 2, 0)
        cairo_arc(cairo, x + width - radius, y + height - radius, radius, 0, .pi / 2)
        cairo_arc(cairo, x + radius, y + height - radius, radius, .pi / 2, .pi)
        cairo_arc(cairo, x + radius, y + radius, radius, .pi, 3 * .pi / 2)
        cairo_close_path(cairo)
    }

    // MARK: Attached to a cairo context

    /// cairo tells user data apart by the address of a key; only its address is used.
    nonisolated(unsafe) private static let key = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

    /// Gives `cairo` masks of its own, released with it.
    static func attach(to cairo: OpaquePointer) {
        let masks = Unmanaged.passRetained(ShapeMasks()).toOpaque()
        cairo_set_user_data(cairo, key, masks) { Unmanaged<ShapeMasks>.fromOpaque($0!).release() }
    }

    private static func of(_ cairo: OpaquePointer) -> ShapeMasks? {
        cairo_get_user_data(cairo, key).map { Unmanaged<ShapeMasks>.fromOpaque($0).takeUnretainedValue() }
    }
}
