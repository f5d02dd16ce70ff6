// Undoes a motion smear along an image's rows: a linear code swiped across its bars in a webcam's exposure
// is the code's profile averaged over the distance it moved (a box), which leaves no edge zxing can find.
// A Wiener filter for that box, row by row, gives the edges back where the box's spectrum is not too near
// zero; the frequencies it zeroes stay lost, which a code's bars, with modules of other widths, survive.

#include "scand_zxing_internal.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace szx_internal {
namespace {

using Complex = std::complex<double>;

// In place, radix 2; `inverse` without the 1/n.
void Transform(std::vector<Complex> &a, bool inverse)
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
        double angle = 2 * M_PI / (double)len * (inverse ? 1 : -1);
        Complex step(std::cos(angle), std::sin(angle));
        for (size_t i = 0; i < n; i += len) {
            Complex w(1);
            for (size_t k = 0; k < len / 2; ++k) {
                Complex u = a[i + k], v = a[i + k + len / 2] * w;
                a[i + k] = u + v;
                a[i + k + len / 2] = u - v;
                w *= step;
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

void UndoRowSmear(uint8_t *pixels, int width, int height, int length)
{
    if (length < 2 || width < 2 || height < 1)
        return;
    // The filter's tails are a few times the smear long: mirrored that far (at most the row), then a ramp.
    const size_t pad = std::min((size_t)width, 128 + 4 * (size_t)length);
    size_t n = 1;
    while (n < (size_t)width + 2 * pad + 16)
        n <<= 1;
    // The box, centred; its spectrum H, and the filter conj(H) / (|H|² + k): k keeps the frequencies the box
    // nearly zeroes from swelling the noise.
    std::vector<Complex> filter(n, 0);
    for (int i = 0; i < length; ++i)
        filter[(size_t)((i - length / 2 + (long)n) % (long)n)] = 1.0 / length;
    Transform(filter, false);
    const double k = 0.01;
    for (Complex &h : filter)
        h = std::conj(h) / (std::norm(h) + k);
    // Two rows per transform, one as the real part and one as the imaginary: the filter is a real kernel's,
    // so each comes back in its own part.
    std::vector<Complex> a(n);
    std::vector<double> re, im, middle;
    for (int y = 0; y < height; y += 2) {
        uint8_t *first = pixels + (size_t)y * width, *second = y + 1 < height ? first + width : nullptr;
        Load(first, width, pad, n, re);
        if (second)
            Load(second, width, pad, n, im);
        else
            im.assign(n, 0);
        for (size_t i = 0; i < n; ++i)
            a[i] = Complex(re[i], im[i]);
        Transform(a, false);
        for (size_t i = 0; i < n; ++i)
            a[i] *= filter[i];
        Transform(a, true);
        // Each row is shifted so that the middle of its bars' and spaces' levels (the 5th and 95th percentiles
        // of its middle half: the code's bars, in a band around them) is 128, and the pass reads with that fixed
        // threshold: zxing's binarizers take theirs from the margins and the ringing around the bars as well,
        // and miss the restored bars.
        const int from = width / 4, to = std::max(from + 1, width - width / 4);
        auto middleLevel = [&](bool imaginary) {
            middle.clear();
            for (int x = from; x < to; ++x) {
                const Complex v = a[pad + (size_t)x];
                middle.push_back((imaginary ? v.imag() : v.real()) / (double)n);
            }
            const size_t low = middle.size() / 20, high = middle.size() - 1 - middle.size() / 20;
            std::nth_element(middle.begin(), middle.begin() + (long)low, middle.end());
            const double lowValue = middle[low];
            std::nth_element(middle.begin(), middle.begin() + (long)high, middle.end());
            return (lowValue + middle[high]) / 2;
        };
        const Complex threshold(middleLevel(false), second ? middleLevel(true) : 0.0);
        for (int x = 0; x < width; ++x) {
            const Complex v = a[pad + (size_t)x] / (double)n - threshold;
            first[x] = (uint8_t)std::clamp(std::lround(v.real() + 128), 0L, 255L);
            if (second)
                second[x] = (uint8_t)std::clamp(std::lround(v.imag() + 128), 0L, 255L);
        }
    }
}

}  // namespace szx_internal
