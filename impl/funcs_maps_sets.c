/*
 * funcs_maps_sets.c — functions on maps, objects and sets: keys, values,
 * lookup (Terraform's), merge, zipmap, setintersection, setproduct,
 * setsubtract, setunion.  cty 1.12.1's stdlib functions, which Terraform
 * registers as they are, except lookup.
 */
#include <stddef.h>

#include "funcs_internal.h"

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_maps_sets[] = {
    {NULL, NULL},
};
