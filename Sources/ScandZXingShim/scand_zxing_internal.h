// Internals shared by the per-call isolated reads (scand_zxing.cpp) and the persistent worker
// (scand_zxing_worker.cpp). C++ only; not part of the C API.
#pragma once

#include "scand_zxing.h"

#include <cerrno>
#include <cstdint>
#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

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

void CopyString(char *dst, size_t size, const std::string &src);
bool ValidImage(const szx_image *image);
// Bytes from an image's first sample to its last, inclusive (of a valid image).
size_t ImageExtent(const szx_image &image);
szx_result *Export(std::vector<Found> &found);
void Send(int fd, Record type, const void *data, size_t size);
bool WriteAll(int fd, const void *data, size_t size);
long long NowMs();

// In a freshly forked child: die with the parent, no core files, default signal actions, stdin and stdout on
// /dev/null, stderr to `err`, and the sandbox (an allowlist of the system calls a decoder needs).
void PrepareChild(int err);
void CloseInherited(std::vector<int> keep);
void Sandbox();
// Fault 4's probe: records in the outcome's message how the sandbox answered each call it must refuse, and
// writes a line to stdout (which must not reach the parent's).
void ProbeSandbox(szx_outcome &o);
void ServePasses(const szx_image *image, const szx_pass *passes, int from, int count, int out);
// Forks a sandboxed child that runs `serve(from, out)` (records to `out`), collects what it sends and settles
// how it ended. Returns the pass to continue from, or -1 when no child could be started (errno says why).
int RunChild(const std::function<void(int from, int out)> &serve, int from, int count, int timeoutMs, szx_outcome *outcomes,
             std::vector<Found> &found, std::vector<Blob> *images = nullptr);

Collected Collect(pid_t pid, int out, int err, int from, int timeoutMs, szx_outcome *outcomes, std::vector<Found> &found,
                  bool untilBatchDone);
// Turns what a dead child left into outcomes; returns the pass to continue from.
int Settle(const Collected &c, int status, int count, int timeoutMs, szx_outcome *outcomes);

// The argument checks and set-up szx_read and szx_worker_read share: SZX_OK, or the status to return (every
// outcome then says SZX_NOT_RUN until its pass runs).
int StartRead(const szx_image *image, const szx_pass *passes, int count, szx_outcome *outcomes, szx_result **results,
              int *result_count);

} // namespace szx_internal
