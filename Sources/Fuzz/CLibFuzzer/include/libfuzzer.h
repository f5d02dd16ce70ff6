// libFuzzer's driver, in the runtime -sanitize=fuzzer links: a program with its own main (a Swift executable
// has one) hands its arguments and its test function over to it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
