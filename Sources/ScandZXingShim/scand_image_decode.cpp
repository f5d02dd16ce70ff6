// Image files decoded in a decoder process: stb_image (Debian's libstb; WebP and TIFF through
// scand_image_webp_tiff.cpp) asserts on hostile JPEGs, so it never
// runs in scand's own process. The parent reads the files; the sandboxed decoder process decodes their bytes
// (in a shared buffer it was given, nothing to open) and sends the pixels back. A crash or overrun costs one
// file; the next process goes on from the file after it.
#include "scand_zxing_internal.h"

#include <cstdlib>
#include <cstring>

#include <stb_image.h>

using namespace szx_internal;

namespace {

struct ImageHead {
    int32_t refusal, width, height, channels;
};

void DecodeOne(const szx_encoded &file, int channels, long long maxPixels, int out)
{
    szx_outcome o{};
    ImageHead head{SZX_IMAGE_DECODED, 0, 0, channels};
    std::string body;
    int w = 0, h = 0, comp = 0;
    int size = file.size > (size_t)INT32_MAX ? INT32_MAX : (int)file.size;  // stb takes an int
    OtherImageOut other;
    OtherImage decoded = file.data ? DecodeOtherImage(file.data, file.size, channels, maxPixels, other) : OtherImage::NotMine;
    if (decoded != OtherImage::NotMine) {
        w = other.width;
        h = other.height;
        switch (decoded) {
        case OtherImage::Decoded: body.swap(other.pixels); break;
        case OtherImage::Empty: head.refusal = SZX_IMAGE_EMPTY; break;
        case OtherImage::TooLarge: head.refusal = SZX_IMAGE_TOO_LARGE; break;
        default:
            head.refusal = SZX_IMAGE_UNREADABLE;
            CopyString(o.message, sizeof o.message, other.message);
        }
    } else if (!file.data || !stbi_info_from_memory(file.data, size, &w, &h, &comp)) {
        head.refusal = SZX_IMAGE_UNREADABLE;
        CopyString(o.message, sizeof o.message, file.data ? stbi_failure_reason() : "no data");
    } else if (w <= 0 || h <= 0) {
        head.refusal = SZX_IMAGE_EMPTY;
    } else if ((long long)w * h > maxPixels) {
        head.refusal = SZX_IMAGE_TOO_LARGE;
    } else if (stbi_uc *pixels = stbi_load_from_memory(file.data, size, &w, &h, &comp, channels)) {
        body.assign(reinterpret_cast<const char *>(pixels), (size_t)w * h * channels);
        stbi_image_free(pixels);
    } else {
        head.refusal = SZX_IMAGE_UNREADABLE;
        CopyString(o.message, sizeof o.message, stbi_failure_reason());
    }
    head.width = w;
    head.height = h;
    body.insert(0, reinterpret_cast<const char *>(&head), sizeof head);
    Send(out, kImage, body.data(), body.size());
    Send(out, kPassDone, &o, sizeof o);
}

} // namespace

void szx_internal::ServeImages(const szx_encoded *files, int from, int count, int channels, long long maxPixels, int out)
{
    for (int k = from; k < count; ++k) {
        int32_t index = k;
        Send(out, kPassStart, &index, sizeof index);
        DecodeOne(files[k], channels, maxPixels, out);
    }
}

extern "C" {

int szx_decode_images(const szx_encoded *files, int count, int channels, long long max_pixels, int timeout_ms,
                      szx_decoded *decoded)
{
    if (!decoded || count < 0 || count > kMaxRequestItems || (count > 0 && !files) || (channels != 1 && channels != 3) ||
        max_pixels <= 0)
        return SZX_BAD_ARGUMENT;
    std::memset(decoded, 0, sizeof(szx_decoded) * (size_t)count);
    try {
        std::vector<szx_outcome> outcomes((size_t)count);
        for (szx_outcome &o : outcomes)
            o.status = SZX_NOT_RUN;
        std::vector<Blob> images;
        DecodeImagesInDecoderProcess(files, count, channels, max_pixels, timeout_ms, outcomes.data(), images);
        for (int k = 0; k < count; ++k)
            decoded[k].outcome = outcomes[(size_t)k];
        for (const Blob &b : images) {
            szx_decoded &d = decoded[b.pass];
            ImageHead head;
            if (d.outcome.status != SZX_OK || b.body.size() < sizeof head)
                continue;
            std::memcpy(&head, b.body.data(), sizeof head);
            size_t bytes = b.body.size() - sizeof head;
            d.refusal = head.refusal;
            d.width = head.width;
            d.height = head.height;
            if (head.refusal == SZX_IMAGE_DECODED) {
                if (head.width <= 0 || head.height <= 0 || bytes != (size_t)head.width * head.height * channels) {
                    d.outcome.status = SZX_SYSTEM;
                    CopyString(d.outcome.message, sizeof d.outcome.message, "malformed reply from the decoder child");
                    continue;
                }
                d.pixels = static_cast<uint8_t *>(std::malloc(bytes));
                if (!d.pixels)
                    throw std::bad_alloc();
                std::memcpy(d.pixels, b.body.data() + sizeof head, bytes);
            }
        }
    } catch (...) {
        for (int k = 0; k < count; ++k) {
            std::free(decoded[k].pixels);
            decoded[k].pixels = nullptr;
        }
        return SZX_SYSTEM;  // out of memory in the parent
    }
    return SZX_OK;
}

} // extern "C"
