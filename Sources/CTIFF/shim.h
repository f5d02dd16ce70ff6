#pragma once
// Debian's libtiff-dev: TIFF stills (the first page) for `scand scan`, decoded in the sandboxed decoder
// process only.
#include <tiffio.h>
