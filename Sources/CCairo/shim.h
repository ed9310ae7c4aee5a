// cairo draws the link preview cards; libpng encodes them (Sources/SitegenKit/Previews).
#include <cairo.h>
#include <png.h>
#include <setjmp.h>
#include <zlib.h>

// Where the encoder hands its bytes: Swift appends them to an array.
typedef void (*sitegen_png_sink)(void *context, const unsigned char *bytes, size_t count);

static inline void sitegen_png_write(png_structp png, png_bytep data, size_t length) {
    void **state = (void **)png_get_io_ptr(png);
    ((sitegen_png_sink)state[0])(state[1], data, length);
}

static inline void sitegen_png_flush(png_structp png) { (void)png; }

// Writes an 8-bit palette PNG: IHDR, PLTE, IDAT, IEND and nothing else (no time or text
// chunks), so the same pixels always give the same bytes. `indices` holds `height` rows of
// `width` palette indices, `stride` bytes apart; `rgb` holds `colours` entries. libpng reports errors by longjmp, which Swift cannot catch, so the setjmp lives here.
// Returns 0, or -1 when libpng failed (out of memory).
static inline int sitegen_write_palette_png(unsigned width, unsigned height, const unsigned char *indices,
                                            size_t stride, const unsigned char *rgb, int colours,
                                            sitegen_png_sink sink, void *context) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); return -1; }
    void *state[2] = { (void *)sink, context };
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, state, sitegen_png_write, sitegen_png_flush);
    // Flat areas of one palette index dominate a card: run-length matching finds them
    // at a fraction of deflate's usual cost, and the unfiltered rows keep those runs intact.
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, Z_RLE);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_color palette[256];
    for (int i = 0; i < colours; i++) {
        palette[i].red = rgb[3 * i];
        palette[i].green = rgb[3 * i + 1];
        palette[i].blue = rgb[3 * i + 2];
    }
    png_set_PLTE(png, info, palette, colours);
    png_write_info(png, info);
    for (unsigned y = 0; y < height; y++) {
        png_write_row(png, indices + (size_t)y * stride);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}
