// The C face of zxing-cpp 3.1 for Swift. Plain C so that no Swift target needs C++ interop.
//
// A read is a list of passes over one luminance image. Each pass crops, scales, mirrors or inverts
// the image and runs one zxing read with its own options. Passes can run in a forked, sandboxed child
// process: a pass that crashes or hangs the library (or a hostile image that does) costs that pass only;
// the parent restarts the child at the next pass and keeps every result so far.
#ifndef SCAND_ZXING_H
#define SCAND_ZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A luminance image: 8-bit samples, `pix_stride` bytes apart in a row (2 reads the Y of YUYV in place).
typedef struct szx_image {
    const uint8_t *data;
    int width;
    int height;
    int row_stride;
    int pix_stride;
} szx_image;

/// scand's format bits. Stable across zxing versions (zxing-cpp 3 has no bit flags of its own); the shim
/// maps them to zxing's formats and every variant zxing reports back to one of them.
enum szx_format {
    SZX_AZTEC = 0x1, SZX_CODABAR = 0x2, SZX_CODE39 = 0x4, SZX_CODE93 = 0x8, SZX_CODE128 = 0x10,
    SZX_DATABAR = 0x20, SZX_DATABAR_EXPANDED = 0x40, SZX_DATAMATRIX = 0x80, SZX_EAN8 = 0x100, SZX_EAN13 = 0x200,
    SZX_ITF = 0x400, SZX_MAXICODE = 0x800, SZX_PDF417 = 0x1000, SZX_QRCODE = 0x2000, SZX_UPCA = 0x4000,
    SZX_UPCE = 0x8000, SZX_MICRO_QRCODE = 0x10000, SZX_RMQR_CODE = 0x20000, SZX_DATABAR_LIMITED = 0x40000,
    SZX_DATABAR_STACKED = 0x80000, SZX_DATABAR_EXPANDED_STACKED = 0x100000,
    SZX_ALL_FORMATS = 0x1FFFFF,
};

enum szx_binarizer {
    SZX_BINARIZER_LOCAL_AVERAGE = 0,
    SZX_BINARIZER_GLOBAL_HISTOGRAM = 1,
    SZX_BINARIZER_FIXED_THRESHOLD = 2,
    SZX_BINARIZER_BOOL_CAST = 3,
};

/// One read. Its pixels are either the crop box-downscaled, mirrored, inverted (in that order), or, with
/// `resample`, sampled bilinearly through `sample`, then inverted. The caller (scand's Swift `PassGeometry`)
/// owns the geometry: the same map takes the corners zxing reports in pass pixels back to the image.
typedef struct szx_pass {
    int left, top, width, height;  // crop, in source pixels; must lie inside the image
    int scale;                     // box downscale factor, 1 = none (1...8)
    int mirror;                    // flip horizontally
    int invert;                    // 255 - value: reads light-on-dark codes
    int formats;                   // enum szx_format bits; 0 = every format
    int try_harder, try_rotate, try_downscale;
    int try_invert;                // zxing also reads the inverted image (light-on-dark codes) in the same pass
    int ean_add_on;                // 0 ignore EAN-2/EAN-5 add-ons, 1 read them when present, 2 require them
    int binarizer;                 // enum szx_binarizer
    int max_symbols;               // 0 = no limit (ReadBarcodes); 1 = ReadBarcode
    int is_pure;
    int inject_fault;              // tests only, in an isolated child: 1 abort, 2 segfault, 3 hang, 4 probe the sandbox
    int lane;                      // szx_worker only: which of its processes runs the pass (modulo their number)
    int resample;                  // 1: the pass image is `resample_width`×`resample_height` pixels, pixel (x, y)
    int resample_width;            // sampled at (sample[0] x + sample[1] y + sample[2], sample[3] x + sample[4] y
    int resample_height;           // + sample[5]) in the image, bilinearly, clamped to it (a crop turned upright,
    double sample[6];              // enlarged); scale and mirror are then ignored
    int unsmear;                   // 0, or 2...64: undoes a motion smear this many pass pixels long along its rows
    int defocus;                   // 0, or 5...200: undoes a defocus, a Gaussian of this many tenths of a pass
                                   // pixel (sigma), along its rows
} szx_pass;

enum szx_content_type {
    SZX_CONTENT_TEXT = 0, SZX_CONTENT_BINARY, SZX_CONTENT_MIXED, SZX_CONTENT_GS1, SZX_CONTENT_ISO15434,
    SZX_CONTENT_UNKNOWN_ECI,
};

typedef struct szx_result {
    int pass;                  // index of the pass that found it
    int format;                // a single enum szx_format bit
    char *text;                // UTF-8, NUL-terminated, `text_length` bytes (may hold NUL bytes)
    int text_length;
    uint8_t *bytes;            // the decoded bytes, without ECI interpretation
    int bytes_length;
    int corners[8];            // x,y of top-left, top-right, bottom-right, bottom-left in pass pixels
    int orientation;           // degrees
    int inverted;              // zxing read it light-on-dark (try_invert)
    char symbology[8];         // e.g. "]Q1"
    int has_eci;
    char ec_level[8];
    int mirrored;
    int content_type;          // enum szx_content_type
    int sequence_size;         // -1 when not part of a structured-append sequence
    int sequence_index;
    char sequence_id[64];
    int reader_init;
    int line_count;
} szx_result;

enum szx_status {
    SZX_OK = 0,
    SZX_BAD_ARGUMENT = 1,     // rejected before it reached the library
    SZX_EXCEPTION = 2,        // a C++ exception, caught
    SZX_CRASHED = 3,          // the isolated child died by a signal (an assert is SIGABRT)
    SZX_TIMEOUT = 4,          // the isolated child overran its deadline and was killed
    SZX_SYSTEM = 5,           // no decoder process could be started, or a pipe failed
    SZX_NOT_RUN = 6,
};

typedef struct szx_outcome {
    int status;               // enum szx_status
    int signal;               // with SZX_CRASHED
    int result_count;
    char message[256];        // one line: the exception text, the assert line the child printed, ...
} szx_outcome;

/// Runs `count` passes over `image`. `outcomes` has room for `count` entries. Results are returned in
/// `*results` (free with szx_free_results). With `isolated`, the passes run in a decoder process started
/// for this call (see szx_decoder_main); each pass gets `timeout_ms` (0 = none). Returns SZX_OK or SZX_BAD_ARGUMENT/SZX_SYSTEM for the call as a whole.
int szx_read(const szx_image *image, const szx_pass *passes, int count, int isolated, int timeout_ms,
             szx_outcome *outcomes, szx_result **results, int *result_count);

void szx_free_results(szx_result *results, int count);

/// Persistent decoder processes for the live path: started once, fed through shared memory, replaced
/// when one dies or overruns a pass's deadline. Saves a process start per frame. With several lanes, the passes
/// of one read run on that many processes at once (each pass on the lane it names), all driven from the
/// reader's thread. One reader at a time, best always the same thread (a process dies with the thread that
/// started it, and is replaced at the next read); buffers may be acquired and released from any thread.
typedef struct szx_worker szx_worker;

szx_worker *szx_worker_create(int lanes);
int szx_worker_lanes(const szx_worker *worker);
/// As szx_read with isolation. An image that lies in an acquired buffer is read where it is; any other is
/// first copied, luma only and dense, into shared memory.
int szx_worker_read(szx_worker *worker, const szx_image *image, const szx_pass *passes, int count, int timeout_ms,
                    szx_outcome *outcomes, szx_result **results, int *result_count);
/// Shared memory of `size` bytes to capture a frame into, so that reading it copies nothing; NULL when
/// every buffer is in use. A new mapping replaces the processes at the next read (they are given the
/// buffers when they start).
uint8_t *szx_worker_acquire_buffer(szx_worker *worker, size_t size);
void szx_worker_release_buffer(szx_worker *worker, const uint8_t *buffer);
/// Reads whose image had to be copied into shared memory (it was not captured into a buffer).
long long szx_worker_copies(const szx_worker *worker);
/// How many decoder processes have been started (one per lane in a healthy run; more after crashes).
int szx_worker_generation(const szx_worker *worker);
/// A lane's process id, or -1 when none is running.
int szx_worker_pid(const szx_worker *worker, int lane);
/// Ends the processes now (the next read starts new ones).
void szx_worker_retire(szx_worker *worker);
void szx_worker_destroy(szx_worker *worker);

/// Image files (PNG, JPEG, GIF, BMP, binary PNM by stb_image; WebP by libwebp; TIFF by libtiff) decoded in a
/// sandboxed decoder process, never in the caller's process: stb_image asserts on some hostile files. The caller reads the files; the process decodes
/// their bytes. One process decodes files from the first on; after a crash or overrun (`timeout_ms` per file,
/// 0 = none) the next one goes on from the file after it.
typedef struct szx_encoded {
    const uint8_t *data;
    size_t size;
} szx_encoded;

enum szx_image_refusal {
    SZX_IMAGE_DECODED = 0,
    SZX_IMAGE_UNREADABLE = 1,  // stb_image refused the file; the outcome's message is its reason
    SZX_IMAGE_EMPTY = 2,       // the header declares no pixels (width and height say what it declares)
    SZX_IMAGE_TOO_LARGE = 3,   // the header declares more than max_pixels; nothing was decoded
};

typedef struct szx_decoded {
    szx_outcome outcome;  // SZX_OK: see refusal; SZX_CRASHED, SZX_TIMEOUT, SZX_SYSTEM: the file cost a child
    int refusal;          // enum szx_image_refusal, with SZX_OK
    int width, height;    // decoded, or as the header declares them
    uint8_t *pixels;      // width * height * channels bytes when decoded (free with szx_free), else NULL
} szx_decoded;

/// Decodes `count` files as `channels` (1 luma, 3 RGB) samples a pixel into `decoded` (room for `count`).
/// Returns SZX_OK, or SZX_BAD_ARGUMENT/SZX_SYSTEM for the call as a whole.
int szx_decode_images(const szx_encoded *files, int count, int channels, long long max_pixels, int timeout_ms,
                      szx_decoded *decoded);

/// zxing's writer (zint): draws `text` as `format` into a module matrix, one byte a module (1 = dark), no
/// quiet zone; linear symbols as zxing draws them (bars, and for the stacked ones their rows). `options`
/// is zxing's CreatorOptions string ("ecLevel=H", "gs1", …; NULL or "" for none). Matrix is malloc'd,
/// free with szx_free.
int szx_write(int format, const char *text, const char *options, uint8_t **matrix, int *matrix_width,
              int *matrix_height, char *message, size_t message_size);

void szx_free(void *pointer);

/// The decoder executable every isolated read starts (scand-decoder, beside the running executable or in
/// ../libexec/scand from it); NULL when there is none, with where it was looked for in `why`.
const char *szx_decoder_path(char *why, size_t why_size);

/// scand-decoder's main: serves the requests of the scand process that started it, in its sandbox. Its
/// arguments are the descriptors that process gave it; run by hand, it says so and exits with 64.
int szx_decoder_main(int argc, char **argv);

/// "3.1.1" etc., as the headers say.
const char *szx_version(void);

#ifdef __cplusplus
}
#endif

#endif
