#ifndef OUTLINE_BENCH_LIBXML2_SHIM_H
#define OUTLINE_BENCH_LIBXML2_SHIM_H

// Debian's libxml2 is built with ICU, whose types clash with Foundation's copy of ICU.
// Nothing here needs ICU, so switch it off before the other headers are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>

/// Raises libxml2's element depth limit (`xmlParserMaxDepth`, 256 by default) to at least
/// `depth`; Swift 6 rejects the global itself.
static inline void bench_xmlRaiseMaxDepth(unsigned int depth) {
    if (xmlParserMaxDepth < depth) xmlParserMaxDepth = depth;
}

#endif
