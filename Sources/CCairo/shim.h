// cairo draws the link preview cards; Pango lays out the lines of text cairo's own text
// calls cannot (other scripts, emoji, right to left: ShapedText.swift); zlib's checksums
// (crc32) frame their PNG chunks (Sources/SitegenRender/Previews).
#include <cairo.h>
#include <pango/pangocairo.h>
#include <zlib.h>
