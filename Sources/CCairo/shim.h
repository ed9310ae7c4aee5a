// cairo draws the link preview cards; Pango lays out the lines of text cairo's own text
// calls cannot (other scripts, emoji, right to left: ShapedText.swift); zlib's checksums
// (crc32) frame their PNG chunks (Sources/SitegenRender/Previews). fontconfig, FreeType,
// HarfBuzz and pixman are what cairo and Pango draw through: their versions and the fonts
// fontconfig offers are part of every card's key (CardDrawingCode.swift). HarfBuzz's OpenType
// colour calls tell a colour font's glyphs (emoji) apart (ShapedText).
#include <cairo.h>
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ot.h>
#include <pixman.h>
#include <zlib.h>
