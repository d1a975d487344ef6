/* SPDX-License-Identifier: MPL-2.0 */
/*
 * version.c — the library's version and its deallocator.
 */
#include "tfexpr.h"

#include <stdlib.h>

#define TFX_STR_(x) #x
#define TFX_STR(x) TFX_STR_(x)

TFX_API const char *tfx_version(void)
{
    return TFX_STR(TFX_VERSION_MAJOR) "." TFX_STR(TFX_VERSION_MINOR) "."
        TFX_STR(TFX_VERSION_PATCH);
}

TFX_API void tfx_free(void *p)
{
    free(p);
}
