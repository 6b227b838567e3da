#ifndef OUTLINE_BENCH_ZLIB_SHIM_H
#define OUTLINE_BENCH_ZLIB_SHIM_H

#include <zlib.h>

/// `deflateInit` and `inflateInit` are macros that Swift cannot import.
static inline int bench_deflateInit(z_streamp stream, int level) {
    return deflateInit_(stream, level, ZLIB_VERSION, (int)sizeof(z_stream));
}
static inline int bench_inflateInit(z_streamp stream) {
    return inflateInit_(stream, ZLIB_VERSION, (int)sizeof(z_stream));
}

#endif
