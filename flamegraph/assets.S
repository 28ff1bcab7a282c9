/*
 * assets: embed flamegraph/assets/ files as NUL-terminated strings (see
 * assets.h). Paths are relative to the top of the tree, where make runs;
 * flamegraph.mk lists them as prerequisites so edits rebuild this object.
 */
#define ASSET(sym, file)			\
	.global sym;				\
	.type sym, @object;			\
sym:						\
	.incbin file;				\
	.byte 0;				\
	.size sym, . - sym

	.section .rodata
ASSET(fg_asset_svg_css, "flamegraph/assets/svg.css")
ASSET(fg_asset_svg_js, "flamegraph/assets/svg.js")
ASSET(fg_asset_page_css, "flamegraph/assets/page.css")
ASSET(fg_asset_canvas_js, "flamegraph/assets/canvas.js")
ASSET(fg_asset_heatmap_js, "flamegraph/assets/heatmap.js")

	/* No executable stack wanted. */
	.section .note.GNU-stack, "", @progbits
