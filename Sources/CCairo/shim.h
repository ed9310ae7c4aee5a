// cairo draws the link preview cards; zlib compresses them (Sources/SitegenRender/Previews).
#include <cairo.h>
#include <zlib.h>

// deflateInit2 is a macro, which Swift cannot call. A raw deflate stream (no zlib header or
// checksum: PalettePNG writes those, as it joins separately compressed pieces), level 1,
// run-length matching only. Returns Z_OK, or an error when memory runs out.
static inline int sitegen_deflate_init(z_streamp stream) {
    return deflateInit2(stream, 1, Z_DEFLATED, -15, 8, Z_RLE);
}
