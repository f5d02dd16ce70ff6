// WebP (libwebp) and TIFF (libtiff, its first page) image files, which stb_image does not read, decoded in
// the same sandboxed decoder process as stb's formats (scand_image_decode.cpp): from the bytes the parent
// read, nothing opened, their messages kept rather than written to a stderr the person would see.
#include "scand_zxing_internal.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include <tiffio.h>
#include <webp/decode.h>

using namespace szx_internal;

namespace {

// stb_image's grey from RGB, so that every format gives the decoder the same luma.
inline uint8_t Luma(uint32_t r, uint32_t g, uint32_t b) { return (uint8_t)((r * 77 + g * 150 + b * 29) >> 8); }

bool StartsWith(const uint8_t *data, size_t size, const char *magic, size_t at = 0)
{
    size_t n = std::strlen(magic);
    return size >= at + n && std::memcmp(data + at, magic, n) == 0;
}

OtherImage DecodeWebP(const uint8_t *data, size_t size, int channels, long long maxPixels, OtherImageOut &out)
{
    if (!WebPGetInfo(data, size, &out.width, &out.height)) {
        std::snprintf(out.message, sizeof out.message, "corrupt WebP");
        return OtherImage::Unreadable;
    }
    if (out.width <= 0 || out.height <= 0)
        return OtherImage::Empty;
    if ((long long)out.width * out.height > maxPixels)
        return OtherImage::TooLarge;
    std::string rgb((size_t)out.width * out.height * 3, '\0');
    if (!WebPDecodeRGBInto(data, size, reinterpret_cast<uint8_t *>(&rgb[0]), rgb.size(), out.width * 3)) {
        std::snprintf(out.message, sizeof out.message, "corrupt or unsupported WebP (an animation?)");
        return OtherImage::Unreadable;
    }
    if (channels == 3) {
        out.pixels.swap(rgb);
    } else {
        out.pixels.resize((size_t)out.width * out.height);
        for (size_t i = 0; i < out.pixels.size(); ++i)
            out.pixels[i] = (char)Luma((uint8_t)rgb[3 * i], (uint8_t)rgb[3 * i + 1], (uint8_t)rgb[3 * i + 2]);
    }
    return OtherImage::Decoded;
}

// libtiff reads through these from the bytes given: no file, no mapping.
struct Memory {
    const uint8_t *data;
    toff_t size, at;
};

tsize_t Read(thandle_t h, tdata_t buffer, tsize_t n)
{
    Memory &m = *static_cast<Memory *>(h);
    toff_t left = m.at < m.size ? m.size - m.at : 0;
    toff_t take = (toff_t)n < left ? (toff_t)n : left;
    std::memcpy(buffer, m.data + m.at, take);
    m.at += take;
    return (tsize_t)take;
}
tsize_t Write(thandle_t, tdata_t, tsize_t) { return -1; }
toff_t Seek(thandle_t h, toff_t offset, int whence)
{
    Memory &m = *static_cast<Memory *>(h);
    toff_t base = whence == SEEK_CUR ? m.at : whence == SEEK_END ? m.size : 0;
    m.at = base + offset;
    return m.at;
}
int Close(thandle_t) { return 0; }
toff_t Size(thandle_t h) { return static_cast<Memory *>(h)->size; }
int Map(thandle_t, tdata_t *, toff_t *) { return 0; }
void Unmap(thandle_t, tdata_t, toff_t) {}

// libtiff's last error, for the person; its warnings are dropped.
char tiffError[200];
void KeepError(const char *, const char *format, va_list args) { std::vsnprintf(tiffError, sizeof tiffError, format, args); }
void Drop(const char *, const char *, va_list) {}

OtherImage DecodeTIFF(const uint8_t *data, size_t size, int channels, long long maxPixels, OtherImageOut &out)
{
    TIFFSetErrorHandler(KeepError);
    TIFFSetWarningHandler(Drop);
    tiffError[0] = 0;
    Memory memory{data, (toff_t)size, 0};
    // "m": never map the "file"; "r": read.
    TIFF *tif = TIFFClientOpen("image", "rm", &memory, Read, Write, Seek, Close, Size, Map, Unmap);
    if (!tif) {
        std::snprintf(out.message, sizeof out.message, "corrupt TIFF: %s", tiffError[0] ? tiffError : "unreadable header");
        return OtherImage::Unreadable;
    }
    uint32_t w = 0, h = 0;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &h);
    out.width = (int)(w > INT32_MAX ? INT32_MAX : w);
    out.height = (int)(h > INT32_MAX ? INT32_MAX : h);
    OtherImage outcome = OtherImage::Decoded;
    if (w == 0 || h == 0) {
        outcome = OtherImage::Empty;
    } else if ((long long)w * h > maxPixels) {
        outcome = OtherImage::TooLarge;
    } else {
        std::vector<uint32_t> raster((size_t)w * h);
        if (!TIFFReadRGBAImageOriented(tif, w, h, raster.data(), ORIENTATION_TOPLEFT, 0)) {
            std::snprintf(out.message, sizeof out.message, "corrupt or unsupported TIFF: %s", tiffError[0] ? tiffError : "unreadable");
            outcome = OtherImage::Unreadable;
        } else {
            out.pixels.resize(raster.size() * (size_t)channels);
            for (size_t i = 0; i < raster.size(); ++i) {
                uint32_t p = raster[i];
                uint8_t r = (uint8_t)TIFFGetR(p), g = (uint8_t)TIFFGetG(p), b = (uint8_t)TIFFGetB(p);
                if (channels == 3) {
                    out.pixels[3 * i] = (char)r;
                    out.pixels[3 * i + 1] = (char)g;
                    out.pixels[3 * i + 2] = (char)b;
                } else {
                    out.pixels[i] = (char)Luma(r, g, b);
                }
            }
        }
    }
    TIFFClose(tif);
    return outcome;
}

} // namespace

OtherImage szx_internal::DecodeOtherImage(const uint8_t *data, size_t size, int channels, long long maxPixels, OtherImageOut &out)
{
    if (StartsWith(data, size, "RIFF") && StartsWith(data, size, "WEBP", 8))
        return DecodeWebP(data, size, channels, maxPixels, out);
    if (StartsWith(data, size, "II*") || StartsWith(data, size, "MM") || StartsWith(data, size, "II+")) {
        if (size >= 4 && ((data[0] == 'I' && (data[2] == 42 || data[2] == 43) && data[3] == 0) ||
                          (data[0] == 'M' && data[1] == 'M' && data[2] == 0 && (data[3] == 42 || data[3] == 43))))
            return DecodeTIFF(data, size, channels, maxPixels, out);
    }
    return OtherImage::NotMine;
}
