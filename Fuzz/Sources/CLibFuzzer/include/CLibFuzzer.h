#ifndef OUTLINE_FUZZ_CLIBFUZZER_H
#define OUTLINE_FUZZ_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`): parses libFuzzer's flags from
/// argv and runs `callback` on every input. Each harness's `main` calls it, because SwiftPM links
/// an executable target's own entry point as `main`, which hides libFuzzer's `main`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
