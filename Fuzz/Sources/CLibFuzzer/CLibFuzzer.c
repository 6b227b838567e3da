// Declarations only; libFuzzer itself comes from `-sanitize=fuzzer` at link time.
#include "CLibFuzzer.h"
