// Internals shared by the reads (scand_zxing.cpp), the decoder processes and the worker that runs them
// (scand_decoder_process.cpp, scand_zxing_worker.cpp) and the image files (scand_image_decode.cpp). C++ only; not part of the C API.
#pragma once

#include "scand_zxing.h"

#include <cerrno>
#include <cstdint>
#include <string>
#include <poll.h>
#include <sys/types.h>
#include <vector>

#include <unistd.h>

#include <ZXing/Barcode.h>
#include <ZXing/BarcodeFormat.h>

namespace szx_internal {

// A zxing result in scand's terms: its format bit and the payload as scand spells it (see
// scand_zxing_formats.cpp).
struct Spelled {
    int bit = 0;
    std::string text;
    std::vector<uint8_t> bytes;
    std::string addOn;
};

// Undoes a smear `length` pixels long (0: none) and a Gaussian blur of `sigma` pixels (0: none) along each row
// of `pixels` (dense, `width` a row; scand_row_blur.cpp).
void UndoRowBlur(uint8_t *pixels, int width, int height, int length, double sigma);

// What zxing is asked for, for a set of scand format bits (0 = all).
ZXing::BarcodeFormats ZXingFormats(int bits);
// The zxing format the writer draws for one scand format bit (None for an unknown bit).
ZXing::BarcodeFormat ZXingFormat(int bit);
// Converts `b`; false when it is of no format in `requested` (0 = all) once respelled.
bool SpellAsScand(const ZXing::Barcode &b, int requested, Spelled &out);

// A decoded symbol, owning its strings, before it becomes a C struct or crosses the pipe.
struct Found {
    szx_result head;  // pointers unset
    std::string text;
    std::vector<uint8_t> bytes;
};

// WebP and TIFF files, which stb_image does not read (scand_image_webp_tiff.cpp): NotMine for any other bytes.
enum class OtherImage { NotMine, Decoded, Unreadable, TooLarge, Empty };
struct OtherImageOut {
    int width = 0, height = 0;
    std::string pixels;  // `channels` bytes a pixel, when Decoded
    char message[160] = {0};
};
OtherImage DecodeOtherImage(const uint8_t *data, size_t size, int channels, long long maxPixels, OtherImageOut &out);

// Records a decoder child writes: pass started, a result, pass done, batch done (worker only), and an image
// decoded from a file's bytes (scand_image_decode.cpp; a pass there is one file).
enum Record : uint8_t { kPassStart = 'S', kResult = 'R', kPassDone = 'D', kBatchDone = 'E', kImage = 'I' };

// A kImage record's body, tagged with the pass it came from.
struct Blob {
    int pass;
    std::string body;
};

// What the parent read from a child while it ran passes.
struct Collected {
    int current = -1;       // the pass the child was in when it stopped (-1: between passes)
    int lastDone = -1;
    bool timedOut = false;
    bool broken = false;
    bool batchDone = false;
    std::string stderrText;
    std::vector<Blob> images;  // kImage records
};

// Repeats a read- or write-like call, `op(done)` moving bytes from offset `done`, until `size` bytes have
// moved: EINTR is retried, end of stream or an error is failure.
template <typename Op>
bool MoveAll(size_t size, Op op)
{
    size_t done = 0;
    while (done < size) {
        ssize_t n = op(done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += (size_t)n;
    }
    return true;
}

bool ReadAll(int fd, void *data, size_t size);
void CopyString(char *dst, size_t size, const std::string &src);
bool ValidImage(const szx_image *image);
// Bytes from an image's first sample to its last, inclusive (of a valid image).
size_t ImageExtent(const szx_image &image);
szx_result *Export(std::vector<Found> &found);
void Send(int fd, Record type, const void *data, size_t size);
bool WriteAll(int fd, const void *data, size_t size);
long long NowMs();

// In a decoder process before it serves: die with the parent, no core files, default signal actions, stdin
// and stdout on /dev/null, stderr to `err`, and the sandbox (an allowlist of the system calls a decoder needs).
void PrepareChild(int err);
void CloseInherited(std::vector<int> keep);
void Sandbox();
// Fault 4's probe: records in the outcome's message how the sandbox answered each call it must refuse, and
// writes a line to stdout (which must not reach the parent's).
void ProbeSandbox(szx_outcome &o);
void ServePasses(const szx_image *image, const szx_pass *passes, int from, int count, int out);
void ServeImages(const szx_encoded *files, int from, int count, int channels, long long maxPixels, int out);

// What a decoder process (scand-decoder) is asked, over its request socket: a header, then `count` items,
// szx_pass for kPassesRequest, FileSpan for kImagesRequest. The image or the files lie in one of the shared
// buffers it was started with, named by id: the request carries no address.
enum RequestKind : int32_t { kPassesRequest = 1, kImagesRequest = 2 };
struct Request {
    int32_t kind;
    int32_t buffer;   // the shared buffer's id
    uint64_t offset;  // the image's first byte in it (kPassesRequest)
    int32_t width, height, rowStride, pixStride;
    int32_t channels;  // kImagesRequest
    int32_t from, count;
    int64_t maxPixels;  // kImagesRequest
};
// One file's bytes in the shared buffer (kImagesRequest); offset kNoData for a file given without data.
struct FileSpan {
    uint64_t offset, size;
};
constexpr uint64_t kNoData = ~0ULL;
constexpr int kMaxRequestItems = 1 << 16;

// A shared buffer as a decoder process is given it: a memfd passed at its start, mapped read-only there.
struct SharedMapping {
    int id;
    int fd;
    size_t size;
};

// The buffers one process is started with, each by a descriptor of its own (a duplicate, closed here): the
// worker may unmap and close a buffer meanwhile (frames got bigger), and its number go to another descriptor
// of scand (a client's socket), which the process would then be given in its place.
struct SharedMappings {
    std::vector<SharedMapping> list;
    SharedMappings() = default;
    SharedMappings(const SharedMappings &) = delete;
    SharedMappings &operator=(const SharedMappings &) = delete;
    ~SharedMappings()
    {
        for (const SharedMapping &m : list)
            close(m.fd);
    }
};

// The decoder executable scand starts (scand-decoder beside the running executable, or in ../libexec/scand
// from it), or "" when there is none; `why` then says where it was looked for.
const std::string &DecoderPath(std::string *why = nullptr);

// One running decoder process and its channels, started with posix_spawn (no code runs between fork and
// exec in scand's threaded image).
struct DecoderProcess {
    pid_t pid = -1;
    int requests = -1, out = -1, err = -1;

    // Starts one with `shared` mapped; false with `why` when it cannot.
    bool spawn(const std::vector<SharedMapping> &shared, std::string &why);
    // Lets it exit on its own (closing its requests) and reaps it; kills one that lingers.
    void retire();
    void stop(bool kill = true);
};

// Reads a decoder process's records for a request that started at item `from`, until it says the batch is done,
// dies, or overruns `timeoutMs` on one item (then it is killed). It never blocks: the caller polls the
// descriptors it `watch`es, with several processes' at once, and hands each poll's result to `step`.
class Collector {
public:
    Collector(pid_t pid, int out, int err, int from, int timeoutMs);
    // Fills fds[0] and fds[1] (a descriptor of -1 where there is nothing to watch).
    void watch(pollfd *fds) const;
    // When the pass in progress overruns (NowMs() clock), or -1 for never.
    long long deadline() const;
    // After a poll of `watch`'s descriptors: true once done (then `finish`).
    bool step(const pollfd *fds, long long now, szx_outcome *outcomes, std::vector<Found> &found);
    // The poll itself failed: the process is killed and counts as broken.
    void abandon();
    Collected finish();

private:
    void stop(bool &flag);

    pid_t pid;
    int out, err, timeoutMs;
    long long passStarted;
    bool outOpen = true, errOpen = true;
    std::string buf;
    Collected c;
};
long long NowMs();
// In a decoder process of its own, started for this call and ended with it: szx_read's isolation, and the
// image files' decoding (kImage records into `images`).
int ReadInDecoderProcess(const szx_image *image, const szx_pass *passes, int count, int timeoutMs,
                         szx_outcome *outcomes, szx_result **results, int *resultCount);
void DecodeImagesInDecoderProcess(const szx_encoded *files, int count, int channels, long long maxPixels,
                                  int timeoutMs, szx_outcome *outcomes, std::vector<Blob> &images);

// Turns what a dead child left into outcomes; returns the pass to continue from.
int Settle(const Collected &c, int status, int count, int timeoutMs, szx_outcome *outcomes);

// The argument checks and set-up szx_read and szx_worker_read share: SZX_OK, or the status to return (every
// outcome then says SZX_NOT_RUN until its pass runs).
int StartRead(const szx_image *image, const szx_pass *passes, int count, szx_outcome *outcomes, szx_result **results,
              int *result_count);

} // namespace szx_internal
