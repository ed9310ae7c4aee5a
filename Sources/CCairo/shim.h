// cairo draws the link preview cards; zlib's checksums (crc32) frame their PNG chunks
// (Sources/SitegenRender/Previews).
#include <cairo.h>
#include <zlib.h>
