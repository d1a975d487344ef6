/* SPDX-License-Identifier: MPL-2.0 */
/*
 * common.h — macros shared by every module of libtfexpr.  No state.
 */
#ifndef TFX_COMMON_H
#define TFX_COMMON_H

#include <stddef.h>

/* Marks a parameter that a callback signature forces on us. */
#define TFX_UNUSED(x) ((void)(x))

/* Number of elements of a true array. */
#define TFX_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

#endif /* TFX_COMMON_H */
