/*
 * json: the frame tree as the compact JSON the canvas page draws
 * (assets/canvas.js). Frames are listed in preorder as parallel arrays:
 *
 *   {"title":..., "subtitle":..., "countname":..., "inverted":0|1,
 *    "diff":0|1, "total":N, "names":[...], "colors":[0xRRGGBB per name],
 *    "n":[name id], "v":[samples], "x":[samples left of it], "d":[depth],
 *    and for diff graphs "b":[BEFORE samples, scaled], "c":[colour]}
 *
 * Frames below o->minwidth are left out, as in the SVG.
 */
#ifndef MIXPROF_FG_JSON_H
#define MIXPROF_FG_JSON_H

#include <stdio.h>
#include "render.h"

/* The "names" array's items, then `],"colors":[` and its items: the two
 * arrays every page draws from (the caller writes the brackets around). */
void json__put_names(FILE *out, const struct fg_tree *t, enum fg_scheme scheme);

/* 0, or -ENOMEM; output errors are left in ferror(out). Sorts t. */
int json__write_tree(struct fg_tree *t, const struct fg_opts *o, FILE *out);

#endif
