// extern "C" wrapper over zxing-cpp 3.1: checked inputs, caught exceptions, optional process isolation.

#define SZX_STR2(x) #x
#define SZX_STR(x) SZX_STR2(x)

#include "scand_zxing.h"

#include <ZXing/BarcodeFormat.h>
#include <ZXing/CreateBarcode.h>
#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scand_zxing_internal.h"

using namespace ZXing;

namespace szx_internal {

constexpr int kMaxDimension = 1 << 15;  // zxing uses int arithmetic on w*h and strides
constexpr int kAllFormats = SZX_ALL_FORMATS;

void CopyString(char *dst, size_t size, const std::string &src)
{
    if (size == 0)
        return;
    size_t n = std::min(size - 1, src.size());
    std::memcpy(dst, src.data(), n);
    dst[n] = 0;
}

bool ValidImage(const szx_image *image)
{
    if (!image || !image->data || image->width <= 0 || image->height <= 0)
        return false;
    if (image->width > kMaxDimension || image->height > kMaxDimension)
        return false;
    if (image->pix_stride < 1 || image->pix_stride > 8)
        return false;
    long long minRow = (long long)(image->width - 1) * image->pix_stride + 1;
    return image->row_stride >= minRow && (long long)image->row_stride * image->height < (1LL << 31);
}

size_t ImageExtent(const szx_image &image)
{
    return (size_t)(image.height - 1) * (size_t)image.row_stride + (size_t)(image.width - 1) * (size_t)image.pix_stride + 1;
}

const char *PassProblem(const szx_image *image, const szx_pass &p)
{
    if (p.width <= 0 || p.height <= 0)
        return "empty crop";
    // A resampled pass reads through its map, clamped to the image: its crop (the band it turns, centred on
    // what it reads) may reach past the image's edge.
    if (!p.resample && (p.left < 0 || p.top < 0))
        return "negative crop";
    if (!p.resample && ((long long)p.left + p.width > image->width || (long long)p.top + p.height > image->height))
        return "crop outside the image";
    if (p.scale < 1 || p.scale > 8)
        return "scale must be 1...8";
    if (p.width / p.scale < 1 || p.height / p.scale < 1)
        return "crop smaller than the scale";
    if (p.formats < 0 || (p.formats & ~kAllFormats))
        return "unknown format bits";
    if (p.binarizer < 0 || p.binarizer > 3)
        return "unknown binarizer";
    if (p.ean_add_on < 0 || p.ean_add_on > 2)
        return "ean_add_on must be 0...2";
    if (p.max_symbols < 0 || p.max_symbols > 255)
        return "max_symbols must be 0...255";
    if (p.unsmear != 0 && (p.unsmear < 2 || p.unsmear > 64))
        return "unsmear must be 0 or 2...64";
    if (p.defocus != 0 && (p.defocus < 5 || p.defocus > 200))
        return "defocus must be 0 or 5...200";
    if (p.resample) {
        if (p.resample_width < 1 || p.resample_height < 1)
            return "empty resampled pass";
        if ((long long)p.resample_width * p.resample_height > (1LL << 24))
            return "resampled pass over 16 megapixels";
        for (double v : p.sample)
            if (!std::isfinite(v))
                return "resampling map not finite";
    }
    return nullptr;
}

// The pixels one pass reads: a view into the caller's buffer when no copy is needed, else a dense copy.
struct PassImage {
    std::vector<uint8_t> storage;
    ImageView view;
};

// The pass's own pixels: output pixel (x, y) samples the image at the pass's affine map of (x, y),
// bilinearly, clamped to the image.
PassImage PrepareResampled(const szx_image *image, const szx_pass &p)
{
    PassImage out;
    int w = p.resample_width, h = p.resample_height;
    out.storage.resize((size_t)w * h);
    const double *m = p.sample;
    const uint8_t *data = image->data;
    const size_t rowStride = (size_t)image->row_stride, pixStride = (size_t)image->pix_stride;
    auto at = [&](int x, int y) -> int {
        x = std::clamp(x, 0, image->width - 1);
        y = std::clamp(y, 0, image->height - 1);
        return data[(size_t)y * rowStride + (size_t)x * pixStride];
    };
    const uint8_t flip = p.invert ? 255 : 0;  // 255 - v is v ^ 255 for a byte
    auto put = [&](uint8_t *dst, double v) { *dst = (uint8_t)(int)(v + 0.5) ^ flip; };
    // Most rows of a crop lie inside the image with a pixel to spare: sampled there without the clamps and
    // floor (truncation is floor for positive coordinates). The map is affine in x, so a row's two ends bound
    // it; the spare pixel absorbs rounding between them.
    const double innerRight = image->width - 2.0, innerBottom = image->height - 2.0;
    for (int y = 0; y < h; ++y) {
        uint8_t *row = out.storage.data() + (size_t)y * w;
        double ends[4] = {m[1] * y + m[2], m[0] * (w - 1) + m[1] * y + m[2], m[4] * y + m[5], m[3] * (w - 1) + m[4] * y + m[5]};
        bool inside = std::min(ends[0], ends[1]) >= 1.0 && std::max(ends[0], ends[1]) <= innerRight - 1.0
                      && std::min(ends[2], ends[3]) >= 1.0 && std::max(ends[2], ends[3]) <= innerBottom - 1.0;
        // In 16.16 fixed point, stepped along the row, with weights in 256ths: within a grey level of the
        // doubles below, for less of the live pipeline's largest single cost. The steps' rounding adds up to
        // under half a pixel along a row of at most 65536, which the spare pixel absorbs; a row of one pixel
        // takes no step (its slope is not bounded by the check above).
        if (inside && w <= 65536) {
            int64_t sx = std::llround((m[1] * y + m[2]) * 65536.0), sy = std::llround((m[4] * y + m[5]) * 65536.0);
            const int64_t dx = w > 1 ? std::llround(m[0] * 65536.0) : 0, dy = w > 1 ? std::llround(m[3] * 65536.0) : 0;
            for (int x = 0; x < w; ++x, sx += dx, sy += dy) {
                const int x0 = (int)(sx >> 16), y0 = (int)(sy >> 16);
                const int fx = (int)((sx >> 8) & 0xFF), fy = (int)((sy >> 8) & 0xFF);
                const uint8_t *a = data + (size_t)y0 * rowStride + (size_t)x0 * pixStride, *b = a + rowStride;
                const int top = a[0] * (256 - fx) + a[pixStride] * fx, bottom = b[0] * (256 - fx) + b[pixStride] * fx;
                const int v = (top * (256 - fy) + bottom * fy + (1 << 15)) >> 16;
                row[x] = (uint8_t)v ^ flip;
            }
            continue;
        }
        for (int x = 0; x < w; ++x) {
            // Clamped first so that floor fits an int; a point further out reads the edge pixel all the same.
            double sx = std::clamp(m[0] * x + m[1] * y + m[2], -1.0, (double)image->width);
            double sy = std::clamp(m[3] * x + m[4] * y + m[5], -1.0, (double)image->height);
            int x0 = (int)std::floor(sx), y0 = (int)std::floor(sy);
            double fx = sx - x0, fy = sy - y0;
            double v = (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
            put(row + x, v);
        }
    }
    out.view = ImageView(out.storage.data(), w, h, ImageFormat::Lum);
    return out;
}

PassImage PrepareUnsmeared(const szx_image *image, const szx_pass &p);

PassImage Prepare(const szx_image *image, const szx_pass &p)
{
    if (p.unsmear || p.defocus)
        return PrepareUnsmeared(image, p);
    if (p.resample)
        return PrepareResampled(image, p);
    PassImage out;
    const uint8_t *origin = image->data + (size_t)p.top * image->row_stride + (size_t)p.left * image->pix_stride;
    if (p.scale == 1 && !p.invert && !p.mirror) {
        out.view = ImageView(origin, p.width, p.height, ImageFormat::Lum, image->row_stride, image->pix_stride);
        return out;
    }
    int w = p.width / p.scale, h = p.height / p.scale, area = p.scale * p.scale;
    out.storage.resize((size_t)w * h);
    // The pass's options in locals: read through `p` in the loops, they were loaded again for every pixel (the
    // stores might alias them), which made the full-size copy 5% of a till session's CPU.
    const int scale = p.scale;
    const size_t rowStride = (size_t)image->row_stride, pixStride = (size_t)image->pix_stride;
    const uint8_t flip = p.invert ? 255 : 0;  // 255 - v is v ^ 255 for a byte
    const bool mirror = p.mirror;
    if (scale == 1) {
        // Inverted or mirrored at full size (the inverted expensive pass over the whole frame): a copy, without
        // the box filter's sums and divisions, which cost a fifth of a till session's CPU.
        for (int y = 0; y < h; ++y) {
            const uint8_t *row = origin + (size_t)y * rowStride;
            uint8_t *dst = out.storage.data() + (size_t)y * w;
            if (mirror) {
                for (int x = 0; x < w; ++x)
                    dst[w - 1 - x] = row[(size_t)x * pixStride] ^ flip;
            } else {
                for (int x = 0; x < w; ++x)
                    dst[x] = row[(size_t)x * pixStride] ^ flip;
            }
        }
        out.view = ImageView(out.storage.data(), w, h, ImageFormat::Lum);
        return out;
    }
    for (int y = 0; y < h; ++y) {
        uint8_t *dst = out.storage.data() + (size_t)y * w;
        for (int x = 0; x < w; ++x) {
            int sum = 0;
            for (int dy = 0; dy < scale; ++dy) {
                const uint8_t *row = origin + (size_t)(y * scale + dy) * rowStride;
                for (int dx = 0; dx < scale; ++dx)
                    sum += row[(size_t)(x * scale + dx) * pixStride];
            }
            dst[mirror ? w - 1 - x : x] = (uint8_t)((sum + area / 2) / area) ^ flip;
        }
    }
    out.view = ImageView(out.storage.data(), w, h, ImageFormat::Lum);
    return out;
}

// The pass's pixels as a dense copy of their own, with the smear or defocus along their rows undone.
PassImage PrepareUnsmeared(const szx_image *image, const szx_pass &p)
{
    szx_pass plain = p;
    plain.unsmear = 0;
    plain.defocus = 0;
    PassImage out = Prepare(image, plain);
    int w = out.view.width(), h = out.view.height();
    if (out.storage.empty()) {
        out.storage.resize((size_t)w * h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                out.storage[(size_t)y * w + x] = *out.view.data(x, y);
    }
    szx_internal::UndoRowBlur(out.storage.data(), w, h, p.unsmear, p.defocus / 10.0);
    out.view = ImageView(out.storage.data(), w, h, ImageFormat::Lum);
    return out;
}

ReaderOptions OptionsFor(const szx_pass &p)
{
    ReaderOptions options;
    options.setFormats(ZXingFormats(p.formats));
    options.setTryHarder(p.try_harder);
    options.setTryRotate(p.try_rotate);
    options.setTryDownscale(p.try_downscale);
    options.setTryInvert(p.try_invert);
    options.setBinarizer(static_cast<Binarizer>(p.binarizer));
    options.setIsPure(p.is_pure);
    options.setTextMode(TextMode::Plain);
    options.setEanAddOnSymbol(static_cast<EanAddOnSymbol>(p.ean_add_on));
    if (p.max_symbols > 0)
        options.setMaxNumberOfSymbols((uint8_t)p.max_symbols);
    return options;
}

Found Convert(const Barcode &r, Spelled &&spelled, int pass)
{
    Found f{};
    szx_result &h = f.head;
    std::memset(&h, 0, sizeof h);
    h.pass = pass;
    h.format = spelled.bit;
    f.text = std::move(spelled.text);
    f.bytes = std::move(spelled.bytes);
    h.inverted = r.isInverted();
    const Position &pos = r.position();
    for (int i = 0; i < 4; ++i) {
        h.corners[2 * i] = pos[i].x;
        h.corners[2 * i + 1] = pos[i].y;
    }
    h.orientation = r.orientation();
    CopyString(h.symbology, sizeof h.symbology, r.symbologyIdentifier());
    h.has_eci = r.hasECI();
    CopyString(h.ec_level, sizeof h.ec_level, r.ecLevel());
    h.mirrored = r.isMirrored();
    h.content_type = static_cast<int>(r.contentType());
    h.sequence_size = r.sequenceSize();
    h.sequence_index = r.sequenceIndex();
    CopyString(h.sequence_id, sizeof h.sequence_id, r.sequenceId());
    h.reader_init = r.readerInit();
    h.line_count = r.lineCount();
    return f;
}

szx_outcome RunPass(const szx_image *image, const szx_pass &p, int index, std::vector<Found> &found)
{
    szx_outcome o{};
    o.status = SZX_OK;
    if (const char *problem = PassProblem(image, p)) {
        o.status = SZX_BAD_ARGUMENT;
        CopyString(o.message, sizeof o.message, problem);
        return o;
    }
    try {
        PassImage img = Prepare(image, p);
        ReaderOptions options = OptionsFor(p);
        Barcodes results;
        if (p.max_symbols == 1) {
            Barcode r = ReadBarcode(img.view, options);
            if (r.isValid())
                results.push_back(std::move(r));
        } else {
            results = ReadBarcodes(img.view, options);
        }
        for (const Barcode &r : results) {
            Spelled spelled;
            if (!r.isValid() || !SpellAsScand(r, p.formats, spelled))
                continue;
            found.push_back(Convert(r, std::move(spelled), index));
            ++o.result_count;
        }
    } catch (const std::exception &e) {
        o.status = SZX_EXCEPTION;
        CopyString(o.message, sizeof o.message, e.what());
    } catch (...) {
        o.status = SZX_EXCEPTION;
        CopyString(o.message, sizeof o.message, "unknown C++ exception");
    }
    return o;
}

szx_result *Export(std::vector<Found> &found)
{
    if (found.empty())
        return nullptr;
    auto *out = static_cast<szx_result *>(std::calloc(found.size(), sizeof(szx_result)));
    if (!out)
        return nullptr;
    for (size_t i = 0; i < found.size(); ++i) {
        out[i] = found[i].head;
        out[i].text_length = (int)found[i].text.size();
        out[i].text = static_cast<char *>(std::malloc(found[i].text.size() + 1));
        if (out[i].text) {
            std::memcpy(out[i].text, found[i].text.data(), found[i].text.size());
            out[i].text[found[i].text.size()] = 0;
        }
        out[i].bytes_length = (int)found[i].bytes.size();
        out[i].bytes = static_cast<uint8_t *>(std::malloc(found[i].bytes.size() + 1));
        if (out[i].bytes && !found[i].bytes.empty())
            std::memcpy(out[i].bytes, found[i].bytes.data(), found[i].bytes.size());
    }
    return out;
}

// ---- the decoder process and its wire ---------------------------------------------------------

bool WriteAll(int fd, const void *data, size_t size)
{
    const char *p = static_cast<const char *>(data);
    return MoveAll(size, [&](size_t done) { return write(fd, p + done, size - done); });
}

void Send(int fd, Record type, const void *data, size_t size)
{
    uint8_t t = type;
    uint32_t n = (uint32_t)size;
    if (!WriteAll(fd, &t, 1) || !WriteAll(fd, &n, 4) || !WriteAll(fd, data, size))
        _exit(70);
}

void InjectFault(int kind)
{
    switch (kind) {
    case 1: std::abort();
    case 2: std::raise(SIGSEGV); break;
    case 3: for (;;) pause();
    }
}

// Closes every descriptor above stderr except `keep`: a decoder child must not hold the camera, the
// subscribers' sockets or another child's pipes (a camera that still has an open handle never comes back
// after an unplug).
void CloseInherited(std::vector<int> keep)
{
    std::sort(keep.begin(), keep.end());
    unsigned next = 3;
    for (int fd : keep) {
        if (fd < (int)next)
            continue;
        if ((unsigned)fd > next)
            close_range(next, (unsigned)fd - 1, 0);
        next = (unsigned)fd + 1;
    }
    close_range(next, ~0U, 0);
}

void PrepareChild(int err)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct rlimit noCore = {0, 0};
    setrlimit(RLIMIT_CORE, &noCore);  // an assert is expected here; no core files
    signal(SIGABRT, SIG_DFL);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    // stdin and stdout on /dev/null: the daemon's stdout is its event stream, no place for a decoder's bytes.
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd : {0, 1})
        null >= 0 ? dup2(null, fd) : close(fd);
    if (null > 2)
        close(null);
    dup2(err, 2);
    Sandbox();
}

void ServePasses(const szx_image *image, const szx_pass *passes, int from, int count, int out)
{
    for (int k = from; k < count; ++k) {
        int32_t index = k;
        Send(out, kPassStart, &index, sizeof index);
        InjectFault(passes[k].inject_fault);
        std::vector<Found> found;
        szx_outcome o = RunPass(image, passes[k], k, found);
        if (passes[k].inject_fault == 4)
            ProbeSandbox(o);
        for (const Found &f : found) {
            std::string blob(reinterpret_cast<const char *>(&f.head), sizeof f.head);
            uint32_t tl = (uint32_t)f.text.size(), bl = (uint32_t)f.bytes.size();
            blob.append(reinterpret_cast<const char *>(&tl), 4).append(f.text);
            blob.append(reinterpret_cast<const char *>(&bl), 4);
            blob.append(reinterpret_cast<const char *>(f.bytes.data()), f.bytes.size());
            Send(out, kResult, blob.data(), blob.size());
        }
        Send(out, kPassDone, &o, sizeof o);
    }
}

long long NowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// Parses complete records out of `buf`; returns false on a malformed stream. `current` is the pass
// the child is in (-1 between passes), `lastDone` the last pass it finished.
bool Consume(std::string &buf, int &current, int &lastDone, szx_outcome *outcomes, std::vector<Found> &found,
             long long &passStarted, bool &batchDone, std::vector<Blob> &images)
{
    size_t at = 0;
    while (buf.size() - at >= 5) {
        uint8_t type = (uint8_t)buf[at];
        uint32_t n;
        std::memcpy(&n, buf.data() + at + 1, 4);
        if (buf.size() - at - 5 < n)
            break;
        const char *body = buf.data() + at + 5;
        switch (type) {
        case kPassStart:
            if (n != 4)
                return false;
            std::memcpy(&current, body, 4);
            passStarted = NowMs();
            break;
        case kResult: {
            Found f{};
            if (n < sizeof f.head + 8)
                return false;
            std::memcpy(&f.head, body, sizeof f.head);
            uint32_t tl, bl;
            std::memcpy(&tl, body + sizeof f.head, 4);
            if (n < sizeof f.head + 8 + (size_t)tl)
                return false;
            f.text.assign(body + sizeof f.head + 4, tl);
            std::memcpy(&bl, body + sizeof f.head + 4 + tl, 4);
            if (n != sizeof f.head + 8 + (size_t)tl + bl)
                return false;
            const char *b = body + sizeof f.head + 8 + tl;
            f.bytes.assign(b, b + bl);
            f.head.text = nullptr;
            f.head.bytes = nullptr;
            found.push_back(std::move(f));
            break;
        }
        case kImage:
            if (current < 0)
                return false;
            images.push_back({current, std::string(body, n)});
            break;
        case kBatchDone:
            if (n != 0 || current >= 0)
                return false;
            batchDone = true;
            break;
        case kPassDone:
            if (n != sizeof(szx_outcome) || current < 0)
                return false;
            std::memcpy(&outcomes[current], body, n);
            lastDone = current;
            current = -1;
            break;
        default:
            return false;
        }
        at += 5 + n;
    }
    buf.erase(0, at);
    return true;
}

std::string LastLine(const std::string &text)
{
    size_t end = text.find_last_not_of("\n\r ");
    if (end == std::string::npos)
        return {};
    size_t start = text.find_last_of('\n', end);
    start = start == std::string::npos ? 0 : start + 1;
    std::string line = text.substr(start, end - start + 1);
    for (char &c : line)
        if ((unsigned char)c < 0x20 || (unsigned char)c == 0x7f)
            c = ' ';
    return line;
}

Collector::Collector(pid_t pid, int out, int err, int from, int timeoutMs)
    : pid(pid), out(out), err(err), timeoutMs(timeoutMs), passStarted(NowMs())
{
    c.lastDone = from - 1;
}

void Collector::watch(pollfd *fds) const
{
    fds[0] = {outOpen ? out : -1, POLLIN, 0};
    fds[1] = {outOpen && errOpen ? err : -1, POLLIN, 0};
}

long long Collector::deadline() const
{
    return timeoutMs > 0 ? passStarted + timeoutMs : -1;
}

void Collector::abandon()
{
    stop(c.broken);
}

void Collector::stop(bool &flag)
{
    flag = true;
    kill(pid, SIGKILL);
    outOpen = false;
}

bool Collector::step(const pollfd *fds, long long now, szx_outcome *outcomes, std::vector<Found> &found)
{
    if (!outOpen)
        return true;
    bool heard = false;
    char chunk[65536];
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        heard = true;
        ssize_t r = read(out, chunk, sizeof chunk);
        if (r > 0) {
            buf.append(chunk, (size_t)r);
            if (!Consume(buf, c.current, c.lastDone, outcomes, found, passStarted, c.batchDone, c.images)) {
                stop(c.broken);
                return true;
            }
            if (c.batchDone) {
                outOpen = false;
                return true;  // the process lives on
            }
        } else if (r == 0 || errno != EINTR) {
            outOpen = false;
        }
    }
    if (errOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
        heard = true;
        ssize_t r = read(err, chunk, sizeof chunk);
        if (r > 0) {
            c.stderrText.append(chunk, (size_t)r);
            if (c.stderrText.size() > 8192)
                c.stderrText.erase(0, c.stderrText.size() - 4096);
        } else if (r == 0 || errno != EINTR) {
            errOpen = false;
        }
    }
    if (outOpen && !heard && deadline() >= 0 && now >= deadline())
        stop(c.timedOut);
    return !outOpen;
}

Collected Collector::finish()
{
    if (c.batchDone)
        return std::move(c);
    // Drain what the child printed before it died (the assert line comes right before SIGABRT).
    int flags = fcntl(err, F_GETFL);
    fcntl(err, F_SETFL, flags | O_NONBLOCK);
    for (;;) {
        char chunk[4096];
        ssize_t r = read(err, chunk, sizeof chunk);
        if (r <= 0)
            break;
        c.stderrText.append(chunk, (size_t)r);
    }
    fcntl(err, F_SETFL, flags);
    return std::move(c);
}

int Settle(const Collected &c, int status, int count, int timeoutMs, szx_outcome *outcomes)
{
    if (c.current < 0) {
        // Every pass that started also finished. A child that stopped before the last pass without
        // starting the next one is charged to that next pass, so the caller moves on instead of looping.
        int next = c.lastDone + 1;
        if (next >= count)
            return count;
        std::string why = LastLine(c.stderrText);
        if (c.timedOut) {
            // Silent before it said the pass had started (stopped, or starved): an overrun all the same, and
            // the process was killed and is replaced as for one.
            outcomes[next].status = SZX_TIMEOUT;
            CopyString(outcomes[next].message, sizeof outcomes[next].message,
                       "no answer within " + std::to_string(timeoutMs) + " ms");
            return next + 1;
        }
        outcomes[next].status = SZX_SYSTEM;
        CopyString(outcomes[next].message, sizeof outcomes[next].message,
                   c.broken ? "malformed reply from the decoder child" : why.empty() ? "decoder child stopped between passes" : why);
        return next + 1;
    }
    szx_outcome &o = outcomes[c.current];
    o.result_count = 0;
    std::string why = LastLine(c.stderrText);
    if (c.timedOut) {
        o.status = SZX_TIMEOUT;
        CopyString(o.message, sizeof o.message, "no answer within " + std::to_string(timeoutMs) + " ms");
    } else if (WIFSIGNALED(status)) {
        o.status = SZX_CRASHED;
        o.signal = WTERMSIG(status);
        CopyString(o.message, sizeof o.message, why.empty() ? std::string(strsignal(o.signal)) : why);
    } else {
        o.status = SZX_SYSTEM;
        CopyString(o.message, sizeof o.message, why.empty() ? "decoder child exited mid-pass" : why);
    }
    return c.current + 1;
}

int StartRead(const szx_image *image, const szx_pass *passes, int count, szx_outcome *outcomes, szx_result **results,
              int *result_count)
{
    if (!results || !result_count || !outcomes || count < 0 || (count > 0 && !passes))
        return SZX_BAD_ARGUMENT;
    *results = nullptr;
    *result_count = 0;
    if (!ValidImage(image))
        return SZX_BAD_ARGUMENT;
    for (int k = 0; k < count; ++k) {
        std::memset(&outcomes[k], 0, sizeof outcomes[k]);
        outcomes[k].status = SZX_NOT_RUN;
    }
    return SZX_OK;
}

} // namespace szx_internal

using namespace szx_internal;

extern "C" {

int szx_read(const szx_image *image, const szx_pass *passes, int count, int isolated, int timeout_ms,
             szx_outcome *outcomes, szx_result **results, int *result_count)
{
    if (int status = StartRead(image, passes, count, outcomes, results, result_count); status != SZX_OK)
        return status;
    std::vector<Found> found;
    try {
        if (!isolated) {
            for (int k = 0; k < count; ++k)
                outcomes[k] = RunPass(image, passes[k], k, found);
        } else {
            return ReadInDecoderProcess(image, passes, count, timeout_ms, outcomes, results, result_count);
        }
        *results = Export(found);
        *result_count = *results ? (int)found.size() : 0;
    } catch (...) {
        return SZX_SYSTEM;  // out of memory in the parent's bookkeeping
    }
    return SZX_OK;
}

void szx_free_results(szx_result *results, int count)
{
    if (!results)
        return;
    for (int i = 0; i < count; ++i) {
        std::free(results[i].text);
        std::free(results[i].bytes);
    }
    std::free(results);
}

int szx_write(int format, const char *text, const char *options, uint8_t **matrix, int *matrix_width,
              int *matrix_height, char *message, size_t message_size)
{
    if (!text || !matrix || !matrix_width || !matrix_height || format <= 0 || (format & (format - 1)) ||
        (format & ~kAllFormats)) {
        if (message)
            CopyString(message, message_size, "bad argument");
        return SZX_BAD_ARGUMENT;
    }
    *matrix = nullptr;
    try {
        Barcode barcode = CreateBarcodeFromText(text, CreatorOptions(ZXingFormat(format), options ? options : ""));
        if (!barcode.isValid())
            throw std::runtime_error(barcode.error().msg());
        ImageView symbol = barcode.symbol();
        int w = symbol.width(), h = symbol.height();
        if (w <= 0 || h <= 0)
            throw std::runtime_error("writer produced an empty symbol");
        auto *m = static_cast<uint8_t *>(std::malloc((size_t)w * h));
        if (!m)
            throw std::bad_alloc();
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                m[(size_t)y * w + x] = *symbol.data(x, y) < 128 ? 1 : 0;
        *matrix = m;
        *matrix_width = w;
        *matrix_height = h;
        return SZX_OK;
    } catch (const std::exception &e) {
        if (message)
            CopyString(message, message_size, e.what());
    } catch (...) {
        if (message)
            CopyString(message, message_size, "unknown C++ exception");
    }
    return SZX_EXCEPTION;
}

void szx_free(void *pointer)
{
    std::free(pointer);
}

const char *szx_version(void)
{
    static const char version[] = SZX_STR(ZXING_VERSION_MAJOR) "." SZX_STR(ZXING_VERSION_MINOR) "." SZX_STR(ZXING_VERSION_PATCH);
    return version;
}

} // extern "C"
