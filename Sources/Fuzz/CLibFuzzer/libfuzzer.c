// The declaration only: the definition is libFuzzer's (-sanitize=fuzzer).
#include "libfuzzer.h"
