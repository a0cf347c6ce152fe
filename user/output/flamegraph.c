// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graph as one SVG file that needs nothing else: the merged call
 * tree (calltree.c), root ("all") at the bottom, callees above callers,
 * siblings in name order, widths proportional to CPU time.  Frames
 * narrower than 0.1 px are left out.  The embedded script (ECMAScript in
 * CDATA) shows a frame's details on hover, zooms into a frame on click
 * (its ancestors span the width, everything beside it is hidden), resets
 * with "Reset Zoom", and highlights the frames whose name matches a
 * regular expression ("Search"), with the share of time they cover.
 * Frames that only off-CPU samples (time blocked) reach are blue; the
 * others warm, as in FlameGraph's on/off-CPU convention.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/calltree.h"
#include "output/flamegraph.h"

#define FG_FRAME_H	16
#define FG_PAD		10
#define FG_TOP		36	/* title */
#define FG_BOTTOM	28	/* details line */
#define FG_CHAR_W	7.0	/* average glyph width at 12px */
#define FG_MIN_W	0.1

static const char fg_script[] =
"var svg, details, matched, unzoomBtn, frames, W, PAD = 10, CW = 7.0;\n"
"function init(evt) {\n"
"  svg = document.documentElement;\n"
"  details = document.getElementById('details').firstChild;\n"
"  matched = document.getElementById('matched').firstChild;\n"
"  unzoomBtn = document.getElementById('unzoom');\n"
"  W = parseFloat(svg.getAttribute('width')) - 2 * PAD;\n"
"  frames = document.getElementById('frames').getElementsByTagName('g');\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var g = frames[i];\n"
"    g.onmouseover = function () {\n"
"      details.nodeValue = this.getElementsByTagName('title')[0].textContent;\n"
"    };\n"
"    g.onmouseout = function () { details.nodeValue = ' '; };\n"
"    g.onclick = function () { zoom(this); };\n"
"  }\n"
"  unzoomBtn.onclick = unzoom;\n"
"  document.getElementById('search').onclick = search;\n"
"}\n"
"function num(g, a) { return parseFloat(g.getAttribute(a)); }\n"
"function place(g, x, w) {\n"
"  var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
"  r.setAttribute('x', x); r.setAttribute('width', w);\n"
"  t.setAttribute('x', x + 3);\n"
"  var name = g.getAttribute('data-name'), fit = Math.floor((w - 6) / CW);\n"
"  t.textContent = fit < 3 ? '' :\n"
"    (name.length <= fit ? name : name.substring(0, fit - 2) + '..');\n"
"  g.style.display = '';\n"
"}\n"
"function zoom(node) {\n"
"  var x0 = num(node, 'data-x'), w0 = num(node, 'data-w'), d0 = num(node, 'data-d');\n"
"  var s = W / w0;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var g = frames[i], x = num(g, 'data-x'), w = num(g, 'data-w'), d = num(g, 'data-d');\n"
"    if (x + w <= x0 + 1e-6 || x >= x0 + w0 - 1e-6) { g.style.display = 'none'; continue; }\n"
"    if (d < d0) place(g, PAD, W);\n"
"    else place(g, PAD + (x - x0) * s, w * s);\n"
"  }\n"
"  unzoomBtn.setAttribute('opacity', '1');\n"
"}\n"
"function unzoom() {\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var g = frames[i];\n"
"    place(g, PAD + num(g, 'data-x'), num(g, 'data-w'));\n"
"  }\n"
"  unzoomBtn.setAttribute('opacity', '0');\n"
"}\n"
"function search() {\n"
"  var term = prompt('Search for (regular expression), empty to clear', '');\n"
"  if (term === null) return;\n"
"  var re = term ? new RegExp(term) : null, spans = [];\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var g = frames[i], r = g.getElementsByTagName('rect')[0];\n"
"    if (re && re.test(g.getAttribute('data-name'))) {\n"
"      r.setAttribute('fill', 'rgb(230,0,230)');\n"
"      spans.push([num(g, 'data-x'), num(g, 'data-x') + num(g, 'data-w')]);\n"
"    } else r.setAttribute('fill', g.getAttribute('data-fill'));\n"
"  }\n"
"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
"  var covered = 0, end = -1;\n"
"  for (var j = 0; j < spans.length; j++) {\n"
"    var a = Math.max(spans[j][0], end), b = spans[j][1];\n"
"    if (b > a) covered += b - a;\n"
"    if (b > end) end = b;\n"
"  }\n"
"  matched.nodeValue = re ? 'Matched: ' + (100 * covered / W).toFixed(2) + '%' : ' ';\n"
"}\n";

static void xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			/* XML 1.0 forbids most control characters */
			fputc(c < 0x20 ? '?' : c, f);
		}
	}
}

/* Visible label: the name cut to fit @w pixels. */
static void label(FILE *f, const char *name, double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / FG_CHAR_W) : 0, len = strlen(name);
	char buf[1024];

	if (fit < 3)
		return;
	if (len <= fit) {
		xml_escape(f, name);
		return;
	}
	if (fit - 2 >= sizeof(buf))
		fit = sizeof(buf) + 1;
	memcpy(buf, name, fit - 2);
	/* do not cut a UTF-8 sequence in half */
	while (fit > 2 && ((unsigned char)buf[fit - 3] & 0xc0) == 0x80)
		fit--;
	buf[fit - 2] = '\0';
	xml_escape(f, buf);
	fputs("..", f);
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261U;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619U;
	return h;
}

static void color(char *out, size_t size, const struct dw_prof_func *fn, int off_cpu)
{
	uint32_t h = name_hash(fn->name);

	if (fn->dso && (!strcmp(fn->dso, DW_PROF_MARKER_DSO) ||	/* truncation markers, */
			!strcmp(fn->name, DW_PROF_WALK_FRAME)))		/* the profiler's walk */
		snprintf(out, size, "rgb(160,160,160)");
	else if (off_cpu)		/* off-CPU time only: blues */
		snprintf(out, size, "rgb(%u,%u,%u)", 60 + h % 60, 110 + (h >> 8) % 70,
			 200 + (h >> 16) % 55);
	else if (!strncmp(fn->name, "[unknown]", 9))
		snprintf(out, size, "rgb(210,110,110)");
	else if (fn->dso && fn->dso[0] == '[')			/* kernel */
		snprintf(out, size, "rgb(%u,%u,%u)", 200 + h % 55, 120 + (h >> 8) % 60,
			 20 + (h >> 16) % 40);
	else
		snprintf(out, size, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 200,
			 (h >> 16) % 55);
}

static void frame(FILE *f, const char *name, const char *dso, const char *fill, double x,
		  double w, unsigned int depth, double y, unsigned long samples, double pct)
{
	fprintf(f, "<g data-name=\"");
	xml_escape(f, name);
	fprintf(f, "\" data-x=\"%.3f\" data-w=\"%.3f\" data-d=\"%u\" data-fill=\"%s\">"
		"<title>", x - FG_PAD, w, depth, fill);
	xml_escape(f, name);
	if (dso && dso[0] && strcmp(dso, DW_PROF_MARKER_DSO)) {
		fputs(" (", f);
		xml_escape(f, dso);
		fputc(')', f);
	}
	fprintf(f, ": %lu samples, %.2f%%</title>", samples, pct);
	fprintf(f, "<rect x=\"%.3f\" y=\"%.1f\" width=\"%.3f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\" ry=\"2\"/>", x, y, w, FG_FRAME_H - 1, fill);
	fprintf(f, "<text x=\"%.3f\" y=\"%.1f\">", x + 3, y + FG_FRAME_H - 4.5);
	label(f, name, w);
	fputs("</text></g>\n", f);
}

/* The SVG up to the frames: size, style, the script, title and the controls. */
static void svg_head(FILE *f, unsigned int width, unsigned int height, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"xmlns=\"http://www.w3.org/2000/svg\" onload=\"init(evt)\">\n",
		width, height, width, height);
	fprintf(f, "<style type=\"text/css\">text { font-family: Verdana, sans-serif; "
		"font-size: 12px; fill: rgb(0,0,0); } #frames g:hover rect { stroke: black; "
		"stroke-width: 0.5; cursor: pointer; } #unzoom, #search { cursor: pointer; }"
		"</style>\n");
	fprintf(f, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n", fg_script);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"rgb(248,248,240)\"/>\n",
		width, height);
	fprintf(f, "<text x=\"%u\" y=\"24\" text-anchor=\"middle\" style=\"font-size:17px\">",
		width / 2);
	xml_escape(f, title ? title : "Flame Graph");
	fprintf(f, "</text>\n<text id=\"unzoom\" x=\"%d\" y=\"24\" opacity=\"0\">Reset Zoom"
		"</text>\n<text id=\"search\" x=\"%u\" y=\"24\">Search</text>\n",
		FG_PAD, width - FG_PAD - 60);
	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n<text id=\"matched\" "
		"x=\"%u\" y=\"%u\"> </text>\n<g id=\"frames\">\n", FG_PAD, height - 10,
		width - FG_PAD - 160, height - 10);
}

/**
 * dw_flamegraph_write() - write the profile as an interactive SVG
 * @f:		output
 * @p:		profile
 * @o:		options
 *
 * Context: user space.
 * Return: 0, -ENOMEM, or -EIO if writing failed.
 */
int dw_flamegraph_write(FILE *f, const struct dw_prof *p, const struct dw_flamegraph_opts *o)
{
	unsigned int width = o->width ? o->width : 1200, maxd = 0, height;
	double W = width - 2.0 * FG_PAD, *x;
	unsigned long all_samples = p->nr_samples;
	struct dw_tree t;
	char fill[32];
	uint32_t c;
	size_t i;

	if (dw_tree_build(&t, p, o->inline_frames, 0))
		return -ENOMEM;
	dw_tree_sort(&t, p, 1);
	x = calloc(t.nr ? t.nr : 1, sizeof(*x));
	if (!x) {
		dw_tree_free(&t);
		return -ENOMEM;
	}
	/* Place nodes depth-first: a child starts where its previous sibling ended. */
	for (i = 0; i < t.nr; i++)
		if (t.total && (double)t.nodes[i].total * W / (double)t.total >= FG_MIN_W &&
		    t.nodes[i].depth + 1 > maxd)
			maxd = t.nodes[i].depth + 1;
	height = FG_TOP + (maxd + 1) * FG_FRAME_H + FG_BOTTOM;
	svg_head(f, width, height, o->title);
	snprintf(fill, sizeof(fill), "rgb(230,140,60)");
	frame(f, "all", NULL, fill, FG_PAD, W, 0, height - FG_BOTTOM - FG_FRAME_H, all_samples,
	      100.0);
	c = t.first_root;
	{
		double cursor = FG_PAD;
		double *next_x = calloc(t.nr ? t.nr : 1, sizeof(*next_x));

		if (!next_x) {
			free(x);
			dw_tree_free(&t);
			return -ENOMEM;
		}
		while (c) {
			const struct dw_tree_node *n = &t.nodes[c - 1];
			double w = t.total ? (double)n->total * W / (double)t.total : 0;
			double *slot = n->parent ? &next_x[n->parent - 1] : &cursor;
			int show = w >= FG_MIN_W;

			x[c - 1] = *slot;
			*slot += w;
			if (show) {
				const struct dw_prof_func *fn = &p->funcs[n->func];

				next_x[c - 1] = x[c - 1];
				color(fill, sizeof(fill), fn, n->off && n->off == n->total);
				double y = height - FG_BOTTOM - (n->depth + 2.0) * FG_FRAME_H;

				frame(f, fn->name, fn->dso, fill, x[c - 1], w, n->depth + 1, y,
				      n->samples, 100.0 * (double)n->total / (double)t.total);
			}
			if (show && n->first_child) {
				c = n->first_child;
				continue;
			}
			while (c && !t.nodes[c - 1].next)
				c = t.nodes[c - 1].parent;
			if (c)
				c = t.nodes[c - 1].next;
		}
		free(next_x);
	}
	fputs("</g>\n</svg>\n", f);
	free(x);
	dw_tree_free(&t);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
