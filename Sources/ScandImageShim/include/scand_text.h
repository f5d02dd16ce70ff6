// Text for annotated images, drawn with stb_easy_font (Debian's libstb-dev). ASCII 32...126 only.
#ifndef SCAND_TEXT_H
#define SCAND_TEXT_H
#include <stdint.h>

/// Draws `text` into an RGB image (3 bytes a pixel, `stride` bytes a row) with its top-left at (x, y),
/// each font unit `scale` pixels. Clipped to the image. Returns the number of glyph quads drawn.
int scand_draw_text(uint8_t *rgb, int width, int height, int stride, int x, int y, const char *text, int scale,
                    uint8_t r, uint8_t g, uint8_t b);

/// Size of `text` in font units.
int scand_text_width(const char *text);
int scand_text_height(const char *text);

#endif
