#ifndef OUTLINE_CLIBXML2_SHIM_H
#define OUTLINE_CLIBXML2_SHIM_H

// Debian's libxml2 is built with ICU, whose types clash with Foundation's copy of ICU.
// Nothing here needs ICU, so switch it off before the other headers are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>
#include <libxml/xmlreader.h>

/// `xmlFree` is a global function pointer that Swift 6 rejects; call it through this.
static inline void outline_xmlFree(void *pointer) { xmlFree(pointer); }

/// Raises libxml2's element depth limit (`xmlParserMaxDepth`, 256 by default) to at least
/// `depth`, never lowering it. Swift 6 rejects the global itself; set it through this.
static inline void outline_xmlRaiseMaxDepth(unsigned int depth) {
    if (xmlParserMaxDepth < depth) xmlParserMaxDepth = depth;
}

/// Swallows libxml2's generic (unstructured) messages, which it would print to standard
/// error: encoding conversion failures reach callers as return codes instead.
static inline void outline_xmlIgnoreGenericError(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Turns libxml2's generic messages off for this thread (`silent` 1), or back to its default
/// of printing them (0).
static inline void outline_xmlSilenceGenericErrors(int silent) {
    xmlSetGenericErrorFunc(NULL, silent ? outline_xmlIgnoreGenericError : NULL);
}

#endif
