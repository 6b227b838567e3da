#ifndef OUTLINE_CZLIB_SHIM_H
#define OUTLINE_CZLIB_SHIM_H

#include <zlib.h>

/// `deflateInit` and `inflateInit` are macros that Swift cannot import.
static inline int outline_deflateInit(z_streamp stream, int level) {
    return deflateInit_(stream, level, ZLIB_VERSION, (int)sizeof(z_stream));
}
static inline int outline_inflateInit(z_streamp stream) {
    return inflateInit_(stream, ZLIB_VERSION, (int)sizeof(z_stream));
}

/// A raw deflate stream (no zlib header or trailer) with a window of 2^windowBits bytes.
static inline int outline_inflateInitRaw(z_streamp stream, int windowBits) {
    return inflateInit2_(stream, -windowBits, ZLIB_VERSION, (int)sizeof(z_stream));
}

#endif
