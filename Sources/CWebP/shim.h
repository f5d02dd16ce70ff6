#pragma once
// Debian's libwebp-dev: WebP stills for `scand scan`, decoded in the sandboxed decoder process only.
#include <webp/decode.h>
// The encoder, for the tests' sample files only.
#include <webp/encode.h>
