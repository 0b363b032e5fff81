#ifndef OPENCAREKIT_CLIBFUZZER_H
#define OPENCAREKIT_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program with its own main (libclang_rt.fuzzer_no_main): runs the fuzzer with the
/// command line's options, calling `callback` with each input. Defined only when scripts/fuzz links libFuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
