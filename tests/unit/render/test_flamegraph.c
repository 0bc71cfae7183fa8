/* Unit tests of the differential flame graph (flamegraph.h): where each frame is drawn, how its
 * change is told (class, colour, pattern and label), and what a standalone file holds. */
#define _GNU_SOURCE
#include "check.h"
#include "flamegraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *drawn(const struct flame_change *changes, size_t count, bool standalone,
		   size_t *changed)
{
	char *text = NULL;
	size_t length = 0;
	FILE *stream = open_memstream(&text, &length);

	CHECK(stream != NULL);
	*changed = flamegraph_write(stream, changes, count, "parse_query", "flame-1", standalone);
	fclose(stream);
	return text;
}

/* The count of `needle` in `text`. */
static size_t occurrences(const char *text, const char *needle)
{
	size_t count = 0;

	for (; (text = strstr(text, needle)) != NULL; text += strlen(needle))
		count++;
	return count;
}

/* region 1000 (800 before) calls decode 600 (400 before) and then reply 400 (400); decode calls
 * a new function, 200. */
static const struct flame_change changes[] = {
	{ "region", 0, 1000, 800, false },
	{ "decode", 1, 600, 400, false },
	{ "scan_digits", 2, 200, 0, true },
	{ "reply", 1, 400, 400, false },
};

static void flamegraph_should_draw_each_frame_under_its_caller_as_wide_as_its_cost(void)
{
	size_t changed;
	char *svg = drawn(changes, 4, false, &changed);
	char expected[200];

	/* 960 units for 1000 instructions: decode 576 wide from 0, reply 384 wide after it, one row
	 * down; scan_digits under decode's start, two rows down. */
	snprintf(expected, sizeof(expected), "<rect x=\"0.00\" y=\"76.00\" width=\"%.2f\"",
		 0.6 * FLAMEGRAPH_WIDTH);
	CHECK_CONTAINS(svg, expected);
	snprintf(expected, sizeof(expected), "<rect x=\"%.2f\" y=\"76.00\" width=\"%.2f\"",
		 0.6 * FLAMEGRAPH_WIDTH, 0.4 * FLAMEGRAPH_WIDTH);
	CHECK_CONTAINS(svg, expected);
	snprintf(expected, sizeof(expected), "<rect x=\"0.00\" y=\"94.00\" width=\"%.2f\"",
		 0.2 * FLAMEGRAPH_WIDTH);
	CHECK_CONTAINS(svg, expected);
	CHECK_U64(changed, 3);
	free(svg);
}

static void flamegraph_should_tell_each_change_without_colour_too(void)
{
	size_t changed;
	char *svg = drawn(changes, 4, false, &changed);

	CHECK_U64(occurrences(svg, "<g class=\"frame grew\">"), 2);
	CHECK_U64(occurrences(svg, "<g class=\"frame new\">"), 1);
	CHECK_U64(occurrences(svg, "<g class=\"frame same\">"), 1);
	/* The label carries the change, the pattern marks it, the title gives the figures. */
	CHECK_CONTAINS(svg, ">decode +50.0 %</text>");
	CHECK_CONTAINS(svg, ">region +25.0 %</text>");
	CHECK_CONTAINS(svg, ">scan_digits new</text>");
	CHECK_CONTAINS(svg, ">reply</text>");
	CHECK_CONTAINS(svg, "fill=\"url(#flame-1-grew)\"");
	CHECK_CONTAINS(svg, "<pattern id=\"flame-1-grew\"");
	CHECK_CONTAINS(svg, "<title>decode: 600.000 instructions per message against 400.000 in the "
			    "baseline (+200.000)</title>");
	/* An element of the page: as wide as its container, no XML declaration. */
	CHECK(strstr(svg, "<?xml") == NULL);
	CHECK_CONTAINS(svg, "width=\"100%\"");
	free(svg);
}

static void flamegraph_should_name_less_cost_and_leave_small_moves_grey(void)
{
	const struct flame_change less = { "f", 1, 90, 100, false };
	const struct flame_change tiny = { "g", 1, 100.04, 100, false };
	const struct flame_change small_share = { "h", 2, 1000.4, 1000, false };

	CHECK_STR(flamegraph_kind(&less, 1000), "shrank");
	/* Below 0.05 % of the region, or 0.5 % of the frame's own: unchanged to the eye. */
	CHECK_STR(flamegraph_kind(&tiny, 1000), "same");
	CHECK_STR(flamegraph_kind(&small_share, 100), "same");
}

static void flamegraph_should_write_a_file_of_its_own_when_standalone(void)
{
	size_t changed;
	char *svg = drawn(changes, 4, true, &changed);

	CHECK(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
			   "xmlns=\"http://www.w3.org/2000/svg\"", 68) == 0);
	CHECK(strstr(svg, "<script") == NULL && strstr(svg, "href") == NULL);
	CHECK_CONTAINS(svg, "</svg>\n");
	free(svg);
}

static void flamegraph_should_escape_the_names_it_draws(void)
{
	const struct flame_change named[] = { { "operator<<(a&b)", 0, 10, 10, false } };
	size_t changed;
	char *svg = drawn(named, 1, false, &changed);

	CHECK_CONTAINS(svg, "operator&lt;&lt;(a&amp;b)");
	CHECK(strstr(svg, "operator<<") == NULL);
	CHECK_U64(changed, 0);
	free(svg);
}

int main(void)
{
	return RUN_CASES(flamegraph_should_draw_each_frame_under_its_caller_as_wide_as_its_cost,
			 flamegraph_should_tell_each_change_without_colour_too,
			 flamegraph_should_name_less_cost_and_leave_small_moves_grey,
			 flamegraph_should_write_a_file_of_its_own_when_standalone,
			 flamegraph_should_escape_the_names_it_draws);
}
