/*
 * assets: the CSS and JavaScript in flamegraph/assets/, linked into the
 * binary by assets.S (.incbin) so every page works offline and alone.
 * Each is a NUL-terminated string.
 */
#ifndef MIXPROF_FG_ASSETS_H
#define MIXPROF_FG_ASSETS_H

extern const char fg_asset_svg_css[]; /* inside the SVG */
extern const char fg_asset_svg_js[]; /* zoom and search in the SVG */
extern const char fg_asset_page_css[]; /* HTML pages */
extern const char fg_asset_canvas_js[]; /* the canvas flame graph */
extern const char fg_asset_heatmap_js[]; /* the heat map page */

#endif
