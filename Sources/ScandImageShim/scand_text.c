#include "scand_text.h"

#include <stb_easy_font.h>

#include <stdlib.h>

// stb_easy_font emits 4 vertices a quad: x, y, z as floats and a 4-byte colour.
typedef struct { float x, y, z; uint8_t color[4]; } vertex;

int scand_draw_text(uint8_t *rgb, int width, int height, int stride, int x, int y, const char *text, int scale,
                    uint8_t r, uint8_t g, uint8_t b)
{
    if (!rgb || !text || width <= 0 || height <= 0 || scale <= 0)
        return 0;
    enum { kMaxQuads = 4000 };
    vertex *buffer = malloc(sizeof(vertex) * 4 * kMaxQuads);
    if (!buffer)
        return 0;
    unsigned char color[4] = {255, 255, 255, 255};
    int quads = stb_easy_font_print(0, 0, (char *)text, color, buffer, (int)(sizeof(vertex) * 4 * kMaxQuads));
    for (int q = 0; q < quads; ++q) {
        const vertex *v = &buffer[4 * q];
        float x0 = v[0].x, x1 = v[0].x, y0 = v[0].y, y1 = v[0].y;
        for (int i = 1; i < 4; ++i) {
            if (v[i].x < x0) x0 = v[i].x;
            if (v[i].x > x1) x1 = v[i].x;
            if (v[i].y < y0) y0 = v[i].y;
            if (v[i].y > y1) y1 = v[i].y;
        }
        for (int py = y + (int)(y0 * scale); py < y + (int)(y1 * scale); ++py) {
            if (py < 0 || py >= height)
                continue;
            for (int px = x + (int)(x0 * scale); px < x + (int)(x1 * scale); ++px) {
                if (px < 0 || px >= width)
                    continue;
                uint8_t *p = rgb + (size_t)py * stride + (size_t)px * 3;
                p[0] = r;
                p[1] = g;
                p[2] = b;
            }
        }
    }
    free(buffer);
    return quads;
}

int scand_text_width(const char *text) { return text ? stb_easy_font_width((char *)text) : 0; }
int scand_text_height(const char *text) { return text ? stb_easy_font_height((char *)text) : 0; }
