// scand's format bits ↔ zxing-cpp 3's formats, and the payload spellings scand keeps from zxing 1.4.
//
// zxing 3 reports a symbology's variant (QR Code Model 2, DataBar Omni, Code 39 Extended, ITF-14, …) and
// spells some payloads differently from 1.4, whose spellings scand's clients rely on (README, schema):
// UPC-A as 12 digits, UPC-E as its 8 digits, DataBar as the 14-digit GTIN without "01", DataBar Expanded
// as "(01)…(17)…". The conversions live here, next to the one place that knows zxing's names.
#include "scand_zxing_internal.h"

#include <ZXing/Barcode.h>
#include <ZXing/BarcodeFormat.h>

#include <cstring>

namespace szx_internal {

using ZXing::BarcodeFormat;

namespace {

struct FormatPair {
    int bit;
    BarcodeFormat zxing;
};

// What each scand format asks zxing for. QRCode is zxing's whole QR family (Micro QR and rMQR too), so
// scand asks for its two models; Code 39's family also holds Code 32 and PZN, which scand does not read.
constexpr FormatPair kRequested[] = {
    {SZX_AZTEC, BarcodeFormat::Aztec},
    {SZX_CODABAR, BarcodeFormat::Codabar},
    {SZX_CODE39, BarcodeFormat::Code39Std},
    {SZX_CODE39, BarcodeFormat::Code39Ext},
    {SZX_CODE93, BarcodeFormat::Code93},
    {SZX_CODE128, BarcodeFormat::Code128},
    {SZX_DATABAR, BarcodeFormat::DataBarOmni},
    {SZX_DATABAR_EXPANDED, BarcodeFormat::DataBarExp},
    {SZX_DATABAR_LIMITED, BarcodeFormat::DataBarLtd},
    {SZX_DATABAR_STACKED, BarcodeFormat::DataBarStk},
    {SZX_DATABAR_STACKED, BarcodeFormat::DataBarStkOmni},
    {SZX_DATABAR_EXPANDED_STACKED, BarcodeFormat::DataBarExpStk},
    {SZX_DATAMATRIX, BarcodeFormat::DataMatrix},
    {SZX_EAN8, BarcodeFormat::EAN8},
    {SZX_EAN13, BarcodeFormat::EAN13},
    {SZX_ITF, BarcodeFormat::ITF},
    {SZX_MAXICODE, BarcodeFormat::MaxiCode},
    {SZX_PDF417, BarcodeFormat::PDF417},
    {SZX_QRCODE, BarcodeFormat::QRCodeModel2},  // first: the one the writer draws
    {SZX_QRCODE, BarcodeFormat::QRCodeModel1},
    {SZX_UPCA, BarcodeFormat::UPCA},
    {SZX_UPCE, BarcodeFormat::UPCE},
    {SZX_MICRO_QRCODE, BarcodeFormat::MicroQRCode},
    {SZX_RMQR_CODE, BarcodeFormat::RMQRCode},
};

// The scand format of what zxing reported: a variant, or the symbology itself for its plain form (a
// Code 39 that is neither extended nor anything else is reported as Code39); 0 for one scand does not know.
int BitOf(BarcodeFormat f)
{
    switch (f) {
    case BarcodeFormat::Aztec:
    case BarcodeFormat::AztecCode:
    case BarcodeFormat::AztecRune: return SZX_AZTEC;
    case BarcodeFormat::Codabar: return SZX_CODABAR;
    case BarcodeFormat::Code39:
    case BarcodeFormat::Code39Std:
    case BarcodeFormat::Code39Ext: return SZX_CODE39;
    case BarcodeFormat::Code93: return SZX_CODE93;
    case BarcodeFormat::Code128: return SZX_CODE128;
    case BarcodeFormat::DataBar:
    case BarcodeFormat::DataBarOmni: return SZX_DATABAR;
    case BarcodeFormat::DataBarExp: return SZX_DATABAR_EXPANDED;
    case BarcodeFormat::DataBarLtd: return SZX_DATABAR_LIMITED;
    case BarcodeFormat::DataBarStk:
    case BarcodeFormat::DataBarStkOmni: return SZX_DATABAR_STACKED;
    case BarcodeFormat::DataBarExpStk: return SZX_DATABAR_EXPANDED_STACKED;
    case BarcodeFormat::DataMatrix: return SZX_DATAMATRIX;
    case BarcodeFormat::EAN8: return SZX_EAN8;
    case BarcodeFormat::EAN13:
    case BarcodeFormat::ISBN: return SZX_EAN13;
    case BarcodeFormat::ITF:
    case BarcodeFormat::ITF14: return SZX_ITF;
    case BarcodeFormat::MaxiCode: return SZX_MAXICODE;
    case BarcodeFormat::PDF417:
    case BarcodeFormat::CompactPDF417:
    case BarcodeFormat::MicroPDF417: return SZX_PDF417;
    case BarcodeFormat::QRCode:
    case BarcodeFormat::QRCodeModel1:
    case BarcodeFormat::QRCodeModel2: return SZX_QRCODE;
    case BarcodeFormat::UPCA: return SZX_UPCA;
    case BarcodeFormat::UPCE: return SZX_UPCE;
    case BarcodeFormat::MicroQRCode: return SZX_MICRO_QRCODE;
    case BarcodeFormat::RMQRCode: return SZX_RMQR_CODE;
    default: return 0;
    }
}

bool StartsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

} // namespace

ZXing::BarcodeFormats ZXingFormats(int bits)
{
    if (bits == 0)
        bits = SZX_ALL_FORMATS;
    std::vector<BarcodeFormat> out;
    for (const FormatPair &p : kRequested)
        if (bits & p.bit)
            out.push_back(p.zxing);
    return ZXing::BarcodeFormats(std::move(out));
}

BarcodeFormat ZXingFormat(int bit)
{
    for (const FormatPair &p : kRequested)
        if (p.bit == bit)
            return p.zxing;
    return BarcodeFormat::None;
}

bool SpellAsScand(const ZXing::Barcode &b, int requested, Spelled &out)
{
    if (requested == 0)
        requested = SZX_ALL_FORMATS;
    out.bit = BitOf(b.format());
    if (out.bit == 0)
        return false;
    out.addOn = b.extra(ZXing::BarcodeExtra::EanAddOn);
    std::string text = b.text(ZXing::TextMode::Plain);
    const std::vector<uint8_t> &bytes = b.bytes();
    out.bytes.assign(bytes.begin(), bytes.end());
    bool respelled = true;
    switch (out.bit) {
    case SZX_EAN13:
        // As 1.4 and zxing's Java reader do: an EAN-13 with a leading 0 is a UPC-A when UPC-A is asked for.
        if ((requested & SZX_UPCA) && text.size() >= 13 && text[0] == '0') {
            out.bit = SZX_UPCA;
            text.erase(0, 1);
        } else {
            respelled = false;
        }
        break;
    case SZX_UPCA:
        // zxing 3 spells UPC-A as its 13-digit EAN form.
        if (text.size() >= 13 && text[0] == '0')
            text.erase(0, 1);
        break;
    case SZX_UPCE: {
        // zxing 3 spells UPC-E expanded to 13 digits; the 8 digits printed under it are the extra "UPCE".
        std::string upce = b.extra(ZXing::BarcodeExtra::UPCE);
        if (upce.empty())
            respelled = false;
        else
            text = upce + out.addOn;
        break;
    }
    case SZX_DATABAR:
    case SZX_DATABAR_LIMITED:
    case SZX_DATABAR_STACKED:
        // zxing 3 prefixes the GTIN with its AI "01"; 1.4 gave the 14 digits alone.
        if (text.size() == 16 && StartsWith(text, "01"))
            text.erase(0, 2);
        else
            respelled = false;
        break;
    case SZX_CODABAR:
        // zxing 3 keeps Codabar's start and stop characters (A-D); 1.4 gave the data between them.
        if (text.size() >= 2 && std::strchr("ABCD", text.front()) && std::strchr("ABCD", text.back()))
            text = text.substr(1, text.size() - 2);
        else
            respelled = false;
        break;
    case SZX_DATABAR_EXPANDED:
    case SZX_DATABAR_EXPANDED_STACKED:
        // 1.4 gave DataBar Expanded in its human-readable form, "(01)…(3103)…", with no GS separators.
        text = b.text(ZXing::TextMode::HRI);
        break;
    default:
        respelled = false;
    }
    if (respelled)
        out.bytes.assign(text.begin(), text.end());
    out.text = std::move(text);
    return (requested & out.bit) != 0;
}

} // namespace szx_internal
