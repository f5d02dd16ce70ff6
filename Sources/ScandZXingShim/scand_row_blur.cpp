// Undoes a motion smear or a defocus along an image's rows: a linear code swiped across its bars in a
// webcam's exposure is the code's profile averaged over the distance it moved (a box), and one out of focus
// its profile blurred by about a Gaussian; either can leave no edge zxing can find. A Wiener filter for that
// kernel, row by row, gives the edges back where the kernel's spectrum is not too near zero; the frequencies
// it zeroes stay lost, which a code's bars, with modules of other widths, survive.

#include "scand_zxing_internal.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <deque>
#include <vector>

namespace szx_internal {
namespace {

using Complex = std::complex<double>;

// A product without std::complex's checks for infinities and NaNs (a call per product, most of a transform's
// time); the values here are pixel levels and a kernel's spectrum, always finite.
inline Complex Times(Complex a, Complex b)
{
    return Complex(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// In place, radix 2; `inverse` without the 1/n. `roots` holds exp(-2πik/n) for k < n/2.
void Transform(std::vector<Complex> &a, const std::vector<Complex> &roots, bool inverse)
{
    const size_t n = a.size();
    for (size_t i = 1, j = 0; i < n; ++i) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j)
            std::swap(a[i], a[j]);
    }
    for (size_t len = 2; len <= n; len <<= 1) {
        const size_t stride = n / len;
        for (size_t i = 0; i < n; i += len) {
            for (size_t k = 0; k < len / 2; ++k) {
                const Complex w = inverse ? std::conj(roots[k * stride]) : roots[k * stride];
                const Complex u = a[i + k], v = Times(a[i + k + len / 2], w);
                a[i + k] = u + v;
                a[i + k + len / 2] = u - v;
            }
        }
    }
}

// A row at offset `pad` of `n` values, mirrored `pad` values out on both sides (a deconvolution's tails,
// which reach past the row's ends, find the row's own picture there, not an edge that rings back into the
// code), and the rest a ramp between the mirrors' ends, so that the transform's wrap-around sees no step.
void Load(const uint8_t *row, int w, size_t pad, size_t n, std::vector<double> &out)
{
    out.assign(n, 0);
    const size_t width = (size_t)w;
    for (size_t x = 0; x < width; ++x)
        out[pad + x] = row[x];
    for (size_t i = 0; i < pad; ++i) {
        out[pad - 1 - i] = row[std::min(i, width - 1)];
        out[pad + width + i] = row[width - 1 - std::min(i, width - 1)];
    }
    const size_t start = 2 * pad + width, gap = n - start;
    const double from = out[start - 1], to = out[0];
    for (size_t i = 0; i < gap; ++i)
        out[start + i] = from + (to - from) * (double)(i + 1) / (double)(gap + 1);
}

}  // namespace

void UndoRowBlur(uint8_t *pixels, int width, int height, int length, double sigma)
{
    if ((length < 2 && sigma <= 0) || width < 2 || height < 1)
        return;
    length = std::max(length, 1);
    sigma = std::max(sigma, 0.0);
    // The filter's tails are a few times the kernel long: mirrored that far (at most the row), then a ramp.
    const size_t pad = std::min((size_t)width, 128 + 4 * (size_t)length + (size_t)std::lround(8 * sigma));
    size_t n = 1;
    while (n < (size_t)width + 2 * pad + 16)
        n <<= 1;
    // The box, centred, times the Gaussian's spectrum (real: exp(-2π²σ²f²)), is the kernel's spectrum H; the
    // filter is conj(H) / (|H|² + k): k keeps the frequencies the kernel nearly zeroes from swelling the noise.
    std::vector<Complex> filter(n, 0);
    for (int i = 0; i < length; ++i)
        filter[(size_t)((i - length / 2 + (long)n) % (long)n)] = 1.0 / length;
    std::vector<Complex> roots(n / 2);
    for (size_t k = 0; k < n / 2; ++k)
        roots[k] = std::polar(1.0, -2 * M_PI * (double)k / (double)n);
    Transform(filter, roots, false);
    const double k = 0.01;
    for (size_t i = 0; i < n; ++i) {
        const double f = (double)std::min(i, n - i) / (double)n;
        const Complex h = filter[i] * std::exp(-2 * M_PI * M_PI * sigma * sigma * f * f);
        filter[i] = std::conj(h) / (std::norm(h) + k);
    }
    // Two rows per transform, one as the real part and one as the imaginary: the filter is a real kernel's,
    // so each comes back in its own part.
    std::vector<Complex> a(n);
    std::vector<double> re, im, middle;
    std::deque<size_t> lows, highs;
    // A defocus is thresholded locally (below), over a window of 2 reach + 1 values: at most the mirrored
    // margin, so a row narrower than the window reads only its own mirror images.
    const bool local = length < 2;
    const size_t reach = std::min((size_t)std::clamp(width / 32, 8, 128), pad);
    for (int y = 0; y < height; y += 2) {
        uint8_t *first = pixels + (size_t)y * width, *second = y + 1 < height ? first + width : nullptr;
        Load(first, width, pad, n, re);
        if (second)
            Load(second, width, pad, n, im);
        else
            im.assign(n, 0);
        for (size_t i = 0; i < n; ++i)
            a[i] = Complex(re[i], im[i]);
        Transform(a, roots, false);
        for (size_t i = 0; i < n; ++i)
            a[i] = Times(a[i], filter[i]);
        Transform(a, roots, true);
        // Each row is shifted so that the middle of its bars' and spaces' levels is 128, and the pass reads
        // with that fixed threshold: zxing's binarizers take theirs from the margins and the ringing around the
        // bars as well, and miss the restored bars. The levels are the 5th and 95th percentiles of the row's
        // middle half (the code's bars, in a band around them). For a smear, the middle is the whole row's; for
        // a defocus, the mean of a sixteenth of the row around each value (about 8 modules of a code in a band
        // with its margins), which follows a glare spot across the bars, except where that stretch is flat
        // (less than a quarter of the levels' spread: a quiet zone, whose noise would read as bars), which
        // stays on its side of the whole row's middle. Measured on swiped and defocused codes: each misses with
        // the other's (a smear's ringing pulls a local mean about; a glare spot lifts a whole row's level).
        const int from = width / 4, to = std::max(from + 1, width - width / 4);
        auto levels = [&](bool imaginary) {
            middle.clear();
            for (int x = from; x < to; ++x) {
                const Complex v = a[pad + (size_t)x];
                middle.push_back((imaginary ? v.imag() : v.real()) / (double)n);
            }
            const size_t low = middle.size() / 20, high = middle.size() - 1 - middle.size() / 20;
            std::nth_element(middle.begin(), middle.begin() + (long)low, middle.end());
            const double lowValue = middle[low];
            std::nth_element(middle.begin(), middle.begin() + (long)high, middle.end());
            return std::pair<double, double>(lowValue, middle[high]);
        };
        auto write = [&](uint8_t *row, bool imaginary) {
            const auto [low, high] = levels(imaginary);
            const double mid = (low + high) / 2, spread = high - low;
            auto value = [&](size_t i) { return (imaginary ? a[i].imag() : a[i].real()) / (double)n; };
            if (!local) {
                for (int x = 0; x < width; ++x)
                    row[x] = (uint8_t)std::clamp(std::lround(value(pad + (size_t)x) - mid + 128), 0L, 255L);
                return;
            }
            // The window slides: a running sum, and the indices of its candidates for least and most (each
            // entry larger, or smaller, than the ones before it), so a row costs its length, not that times
            // the window's.
            double sum = 0;
            lows.clear();
            highs.clear();
            size_t next = pad - reach;
            auto admit = [&](size_t i) {
                const double v = value(i);
                sum += v;
                while (!lows.empty() && value(lows.back()) >= v)
                    lows.pop_back();
                lows.push_back(i);
                while (!highs.empty() && value(highs.back()) <= v)
                    highs.pop_back();
                highs.push_back(i);
            };
            for (; next < pad + reach; ++next)
                admit(next);
            for (int x = 0; x < width; ++x) {
                const size_t at = pad + (size_t)x;
                admit(next++);
                if (x > 0) {
                    const size_t gone = at - reach - 1;
                    sum -= value(gone);
                    if (lows.front() == gone)
                        lows.pop_front();
                    if (highs.front() == gone)
                        highs.pop_front();
                }
                const double mean = sum / (double)(2 * reach + 1), range = value(highs.front()) - value(lows.front());
                const double threshold = range >= spread / 4 ? mean : mean < mid ? mean + spread / 2 : mean - spread / 2;
                row[x] = (uint8_t)std::clamp(std::lround(value(at) - threshold + 128), 0L, 255L);
            }
        };
        write(first, false);
        if (second)
            write(second, true);
    }
}

}  // namespace szx_internal
