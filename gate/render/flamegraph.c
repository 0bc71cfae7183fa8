/* The differential flame graph (flamegraph.h). The region is the top row and each call one row
 * below its caller (an icicle: the message's entry first, read downwards); siblings keep the
 * tree's order (by name), so two runs of the same code draw the same picture. */
#define _GNU_SOURCE
#include "flamegraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart.h"
#include "fs.h"

#define ROW 18          /* a frame's height */
#define TOP 58          /* the title and the legend above the rows */
#define CHARACTER 6.6   /* the width of one character at font-size 11, about */
#define DEPTH_MAX 64

const char *flamegraph_kind(const struct flame_change *change, double region)
{
	double moved = change->head - change->baseline;

	if (change->appeared)
		return "new";
	if (fabs(moved) < region * 0.0005 || fabs(moved) < change->baseline * 0.005)
		return "same";
	return moved > 0 ? "grew" : "shrank";
}

/* "+12.3 %", "−4.0 %" or "new": the label's suffix, in plain text. */
static void change_text(char *text, size_t size, const struct flame_change *change,
			const char *kind)
{
	if (strcmp(kind, "new") == 0)
		snprintf(text, size, "new");
	else if (strcmp(kind, "same") == 0)
		text[0] = '\0';
	else
		snprintf(text, size, "%s%.1f %%", change->head >= change->baseline ? "+" : "-",
			 fabs(change->head / change->baseline - 1) * 100);
}

/* The frame's colour: red for more, the deeper the more it grew; blue for less; grey else. */
static void colour(char *text, size_t size, const struct flame_change *change, const char *kind)
{
	double grown = change->baseline > 0 ? fabs(change->head / change->baseline - 1) : 1;
	int light = 86 - (int)(fmin(grown, 1.0) * 30);

	if (strcmp(kind, "grew") == 0 || strcmp(kind, "new") == 0)
		snprintf(text, size, "hsl(4,78%%,%d%%)", light);
	else if (strcmp(kind, "shrank") == 0)
		snprintf(text, size, "hsl(212,70%%,%d%%)", light);
	else
		snprintf(text, size, "hsl(40,8%%,86%%)");
}

static void legend(FILE *out, const char *name, const char *id)
{
	fputs("<text x=\"4\" y=\"15\" font-size=\"13\" font-weight=\"600\">", out);
	chart_escape(out, name);
	fputs(": one message&#8217;s call tree, head against the baseline</text>\n", out);
	fputs("<text x=\"4\" y=\"33\" font-size=\"11\">Width: inclusive instructions per message in "
	      "the head, each callee below its caller.</text>\n", out);
	fputs("<text x=\"4\" y=\"49\" font-size=\"11\"><tspan fill=\"#b3261e\">&#9632;</tspan> "
	      "costs more (hatched, &#8220;+%&#8221;) &#160; <tspan fill=\"#1c5fa8\">&#9632;</tspan> "
	      "costs less (dotted, &#8220;&#8722;%&#8221;) &#160; grey: unchanged &#160; "
	      "&#8220;new&#8221;: a path the baseline did not take</text>\n", out);
	fprintf(out, "<defs><pattern id=\"%s-grew\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#7a1510\" stroke-width=\"1.2\" "
		"stroke-opacity=\"0.45\"/></pattern>"
		"<pattern id=\"%s-shrank\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">"
		"<circle cx=\"2.5\" cy=\"2.5\" r=\"0.9\" fill=\"#0d3a6e\" fill-opacity=\"0.5\"/>"
		"</pattern></defs>\n", id, id);
}

/* One frame: its box, its pattern, its label where it fits, and its figures as a title. */
static void frame(FILE *out, const struct flame_change *change, const char *kind, const char *id,
		  double x, double width)
{
	char fill[40], suffix[32];
	double y = TOP + (double)change->depth * ROW;
	size_t room = width > 8 ? (size_t)((width - 6) / CHARACTER) : 0, name_room;

	colour(fill, sizeof(fill), change, kind);
	change_text(suffix, sizeof(suffix), change, kind);
	fprintf(out, "<g class=\"frame %s\"><title>", kind);
	chart_escape(out, change->name);
	fprintf(out, ": %.3f instructions per message", change->head);
	if (change->appeared)
		fputs(", a path the baseline did not take", out);
	else
		fprintf(out, " against %.3f in the baseline (%s%.3f)", change->baseline,
			change->head >= change->baseline ? "+" : "", change->head - change->baseline);
	fprintf(out, "</title><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
		"stroke=\"#fff\" stroke-width=\"0.5\"/>", x, y, width, ROW - 1, fill);
	if (strcmp(kind, "same") != 0 && strcmp(kind, "new") != 0)
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"url(#%s-%s)\"/>", x, y, width, ROW - 1, id, kind);
	else if (strcmp(kind, "new") == 0)
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"url(#%s-grew)\"/>", x, y, width, ROW - 1, id);
	if (room >= 3) {
		size_t name_length = strlen(change->name), suffix_length = strlen(suffix);
		bool with_suffix = suffix_length > 0 && room >= suffix_length;

		/* The change first when both do not fit: it is what the graph is for. */
		name_room = !with_suffix ? room
			    : room > suffix_length + 3 ? room - suffix_length - 1 : 0;
		fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\">", x + 3, y + ROW - 5);
		if (name_room >= name_length) {
			chart_escape(out, change->name);
		} else if (name_room > 2) {
			char *cut = strndup(change->name, name_room - 2);

			chart_escape(out, cut);
			fputs("..", out);
			free(cut);
		}
		if (with_suffix)
			fprintf(out, "%s%s", name_room > 2 ? " " : "", suffix);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

size_t flamegraph_write(FILE *out, const struct flame_change *changes, size_t count,
			const char *name, const char *id, bool standalone)
{
	double next[DEPTH_MAX + 1] = { 0 }, region = count > 0 ? changes[0].head : 0;
	uint64_t deepest = 0;
	size_t i, changed = 0;
	int height;

	for (i = 0; i < count; i++)
		if (changes[i].depth > deepest && changes[i].depth < DEPTH_MAX)
			deepest = changes[i].depth;
	height = TOP + (int)(deepest + 1) * ROW + 4;
	if (standalone)
		fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
			"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" ",
			FLAMEGRAPH_WIDTH, height);
	else
		fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" ", out);
	fprintf(out, "viewBox=\"0 0 %d %d\" class=\"flamegraph\" role=\"img\" "
		"font-family=\"sans-serif\" aria-label=\"", FLAMEGRAPH_WIDTH, height);
	chart_escape(out, name);
	fputs(": call tree of one message, head against the baseline\">\n", out);
	legend(out, name, id);
	for (i = 0; i < count && region > 0; i++) {
		const struct flame_change *change = &changes[i];
		const char *kind = flamegraph_kind(change, region);
		double width = change->head / region * FLAMEGRAPH_WIDTH, x;

		if (change->depth >= DEPTH_MAX)
			continue;
		/* A frame starts where its caller's next callee does; its own callees at its start. */
		x = change->depth == 0 ? 0 : next[change->depth];
		next[change->depth] = x + width;
		next[change->depth + 1] = x;
		if (strcmp(kind, "same") != 0)
			changed++;
		if (width >= 0.3)
			frame(out, change, kind, id, x, width);
	}
	fputs("</svg>\n", out);
	return changed;
}

/* One row's graph as a file; 0 when it has none to draw. */
static int write_file(const struct verdict_row *row, const char *directory, struct gate_error *err)
{
	struct flame_change *changes = NULL;
	char *text = NULL, *path = NULL;
	size_t count = 0, length = 0;
	FILE *stream = NULL;
	int status = -1;

	if (flame_compare(&changes, &count, row->head->frames, row->head->frame_count,
			  row->baseline->frames, row->baseline->frame_count) != 0 ||
	    asprintf(&path, "%s/flame.%s.svg", directory, row->name) < 0 ||
	    (stream = open_memstream(&text, &length)) == NULL) {
		gate_error_oom(err);
		path = NULL;
		goto out;
	}
	flamegraph_write(stream, changes, count, row->name, "flame", true);
	if (fclose(stream) != 0) {
		stream = NULL;
		gate_error_oom(err);
		goto out;
	}
	stream = NULL;
	status = fs_write_atomic(path, text, length, NULL, err) == 0 ? 1 : -1;
out:
	if (stream != NULL)
		fclose(stream);
	free(text);
	free(path);
	free(changes);
	return status;
}

int flamegraph_write_files(const struct verdict *verdict, const char *directory,
			   struct gate_error *err)
{
	int written = 0;
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];
		int status;

		if (row->state != VERDICT_REGRESSED || row->head == NULL || row->baseline == NULL ||
		    row->head->frame_count == 0 || row->baseline->frame_count == 0) {
			/* An earlier run's graph of a scenario that no longer regresses goes. */
			char *path = NULL;

			if (asprintf(&path, "%s/flame.%s.svg", directory, row->name) >= 0)
				unlink(path);
			free(path);
			continue;
		}
		status = write_file(row, directory, err);
		if (status < 0)
			return -1;
		written += status;
	}
	return written;
}
