/* Unit tests of attribution: allocation sites are keyed by their chain of functions, not by line,
 * and the rows whose blocks per message changed come first; what results.json holds of it. */
#include "attribution.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct measurement with_sites(struct site_cost *sites, size_t count)
{
	struct measurement measurement;

	memset(&measurement, 0, sizeof(measurement));
	measurement.info.name = (char *)"alloc";
	measurement.messages = 1000;
	measurement.sites = sites;
	measurement.site_count = count;
	return measurement;
}

#define SITE(location, stack, blocks, bytes) \
	{ (char *)(location), (char *)(stack), (blocks), (bytes), 0, 0 }

/* The allocation sites of a baseline and a head (no baseline when it has none), and the rows of
 * attribution they make, in order: each row's chain, blocks, change and lines. */
struct sites_case {
	const char *name;
	struct site_cost base[2], head[3];
	size_t base_count, head_count, row_count;
	struct attribution_site rows[2];
};

#define ROW(chain, appeared, disappeared, head_blocks, baseline_blocks, blocks_change,           \
	    bytes_change, head_lines, baseline_lines)                                            \
	{ chain, head_lines, baseline_lines, head_blocks, baseline_blocks, blocks_change,        \
	  bytes_change, appeared, disappeared }

static const struct sites_case sites_cases[] = {
	/* Ten lines inserted above every site, one malloc added in a new function: one new row. */
	{ "sites_should_survive_lines_inserted_above_them",
	  { SITE("make_order (lib.c:20)", "make_order (lib.c:20) < handle (s.c:9) < drain (h.c:5)", 1, 32),
	    SITE("make_note (lib.c:31)", "make_note (lib.c:31) < handle (s.c:9) < drain (h.c:5)", 2, 64) },
	  { SITE("make_order (lib.c:30)", "make_order (lib.c:30) < handle (s.c:9) < drain (h.c:5)", 1, 32),
	    SITE("make_note (lib.c:41)", "make_note (lib.c:41) < handle (s.c:9) < drain (h.c:5)", 2, 64),
	    SITE("make_tag (lib.c:52)", "make_tag (lib.c:52) < handle (s.c:10) < drain (h.c:5)", 1, 16) },
	  2, 3, 1,
	  { ROW("make_tag < handle < drain", true, false, 1, 0, 1, 16, "lib.c:52", "") } },
	/* A second malloc in a function that had one: the same chain, changed, with both lines. */
	{ "sites_of_one_chain_should_be_summed_and_show_every_line",
	  { SITE("make_order (lib.c:20)", "make_order (lib.c:20) < handle (s.c:9)", 1, 32) },
	  { SITE("make_order (lib.c:24)", "make_order (lib.c:24) < handle (s.c:9)", 1, 32),
	    SITE("make_order (lib.c:27)", "make_order (lib.c:27) < handle (s.c:9)", 1, 8) },
	  1, 2, 1,
	  { ROW("make_order < handle", false, false, 2, 1, 1, 8, "lib.c:24, lib.c:27", "lib.c:20") } },
	/* A site whose bytes moved a lot but whose blocks did not comes after one whose blocks
	 * moved. */
	{ "sites_whose_blocks_changed_should_come_first",
	  { SITE("grow (lib.c:5)", "grow (lib.c:5) < handle (s.c:9)", 1, 64),
	    SITE("gone_one (lib.c:9)", "gone_one (lib.c:9) < handle (s.c:9)", 1, 8) },
	  { SITE("grow (lib.c:5)", "grow (lib.c:5) < handle (s.c:9)", 1, 4096) },
	  2, 1, 2,
	  { ROW("gone_one < handle", false, true, 0, 1, -1, -8, "", "lib.c:9"),
	    ROW("grow < handle", false, false, 1, 1, 0, 4032, "lib.c:5", "lib.c:5") } },
	/* Frames without debug information ("f (in lib.so)") have a chain and no line. */
	{ "sites_without_lines_should_still_have_a_chain",
	  { SITE(NULL, NULL, 0, 0) },
	  { SITE("cJSON_New_Item (in /usr/lib/libcjson.so)",
		 "cJSON_New_Item (in /usr/lib/libcjson.so) < parse (s.c:3)", 3, 192) },
	  0, 1, 1,
	  { ROW("cJSON_New_Item < parse", false, false, 3, 0, 3, 192, "", "") } },
};

static void check_sites(const struct sites_case *row)
{
	struct site_cost base_sites[2], head_sites[3];
	struct measurement base, head;
	struct attribution why;
	size_t i;

	memcpy(base_sites, row->base, sizeof(base_sites));
	memcpy(head_sites, row->head, sizeof(head_sites));
	base = with_sites(base_sites, row->base_count);
	head = with_sites(head_sites, row->head_count);
	CHECK(attribution_compute(&why, &head, row->base_count != 0 ? &base : NULL) == 0);
	CHECK_U64(why.site_count, row->row_count);
	for (i = 0; i < row->row_count && i < why.site_count; i++) {
		const struct attribution_site *site = &why.sites[i], *expected = &row->rows[i];

		CHECK_STR(site->chain, expected->chain);
		CHECK(site->appeared == expected->appeared);
		CHECK(site->disappeared == expected->disappeared);
		CHECK(site->head_blocks == expected->head_blocks);
		CHECK(site->baseline_blocks == expected->baseline_blocks);
		CHECK(site->blocks_change == expected->blocks_change);
		CHECK(site->bytes_change == expected->bytes_change);
		CHECK_STR(site->head_lines, expected->head_lines);
		CHECK_STR(site->baseline_lines, expected->baseline_lines);
	}
}

static void sites_should_be_keyed_by_their_chain_of_functions(void)
{
	RUN_ROWS(check_sites, sites_cases);
}

#define FUNCTION(label, per_message, is_project) \
	{ .name = (char *)(label), .exclusive = (per_message), .inclusive = (per_message), \
	  .with_library = (per_message), .project = (is_project) }

/* Shares are of the program's whole change: the shown rows and the rest add up to 100 %, and
 * the allocator's change is reported apart, never a row. */
static void function_shares_should_add_up_to_the_whole_change(void)
{
	struct function_cost base_functions[14], head_functions[14];
	struct measurement base, head;
	struct attribution why;
	double sum;
	size_t i;

	memset(&base, 0, sizeof(base));
	memset(&head, 0, sizeof(head));
	for (i = 0; i < 12; i++) {
		static char names[12][16];

		snprintf(names[i], sizeof(names[i]), "parse_%zu", i);
		base_functions[i] = (struct function_cost)FUNCTION(names[i], 100.0, true);
		/* Up and down: +60, -20, +40, -20, ... */
		head_functions[i] = (struct function_cost)FUNCTION(names[i],
								   100.0 + (i % 2 ? -20.0 : 60.0 - 2.0 * (double)i),
								   true);
	}
	base_functions[12] = (struct function_cost)FUNCTION("malloc", 500.0, false);
	head_functions[12] = (struct function_cost)FUNCTION("malloc", 900.0, false);
	base_functions[13] = (struct function_cost)FUNCTION("_int_malloc", 300.0, false);
	head_functions[13] = (struct function_cost)FUNCTION("_int_malloc", 700.0, false);
	base.functions = base_functions;
	head.functions = head_functions;
	base.function_count = head.function_count = 14;
	base.has[METRIC_INSTRUCTIONS] = head.has[METRIC_INSTRUCTIONS] = true;
	base.has[METRIC_ALLOCATOR_INSTRUCTIONS] = head.has[METRIC_ALLOCATOR_INSTRUCTIONS] = true;
	base.slopes[METRIC_INSTRUCTIONS].per_message = 1200.0;
	head.slopes[METRIC_INSTRUCTIONS].per_message = 1200.0 + 180.0 - 60.0 - 120.0 + 4.0;
	base.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 500.0;
	head.slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message = 900.0;
	CHECK(attribution_compute(&why, &head, &base) == 0);
	CHECK_U64(why.function_count, ATTRIBUTION_ROWS);
	CHECK_U64(why.leaf_count, 0); /* malloc and _int_malloc are the allocator's */
	CHECK(why.allocator_change == 400.0);
	sum = why.rest_share_percent;
	for (i = 0; i < why.function_count; i++) {
		sum += why.functions[i].share_percent;
		CHECK(strchr(why.functions[i].name, '\'') == NULL);
	}
	CHECK(sum > 99.999999 && sum < 100.000001);
	CHECK(why.rest_change != 0); /* two rows past the first ten, and the 4 no function shows */
}

#define LINE(file, number, function, text, instructions) \
	{ (char *)(file), (number), (char *)(function), (char *)(text), (instructions) }

/* Lines are matched by file, function, text and rank, not by number: three lines inserted above
 * the loop leave it the same line; of two lines with the same text, the second is matched with
 * the second; a new line is new, a removed one gone; the largest changes come first. */
static void lines_should_be_matched_by_what_they_are_not_their_number(void)
{
	struct line_cost base[] = {
		LINE("lib.c", 10, "sum", "total += value[i];", 100),
		LINE("lib.c", 12, "sum", "i++;", 20),
		LINE("lib.c", 14, "sum", "i++;", 30),
		LINE("lib.c", 20, "sum", "check(total);", 5),
	};
	struct line_cost head[] = {
		LINE("lib.c", 13, "sum", "total += value[i];", 100),
		LINE("lib.c", 14, "sum", "spin(value[i]);", 64),
		LINE("lib.c", 15, "sum", "i++;", 20),
		LINE("lib.c", 17, "sum", "i++;", 38),
	};
	struct measurement head_side, base_side;
	struct attribution why;

	memset(&head_side, 0, sizeof(head_side));
	memset(&base_side, 0, sizeof(base_side));
	head_side.lines = head;
	head_side.line_count = 4;
	base_side.lines = base;
	base_side.line_count = 4;
	CHECK(attribution_compute(&why, &head_side, &base_side) == 0);
	CHECK_U64(why.line_count, 3);
	if (why.line_count != 3)
		return;
	CHECK_U64(why.lines[0].line, 14); /* new, +64 */
	CHECK(why.lines[0].appeared && why.lines[0].change == 64);
	CHECK_U64(why.lines[1].line, 17); /* the second "i++;", 30 then 38 */
	CHECK(why.lines[1].baseline == 30 && why.lines[1].change == 8 && !why.lines[1].appeared);
	CHECK_U64(why.lines[2].line, 20); /* gone */
	CHECK(why.lines[2].disappeared && why.lines[2].change == -5);
	CHECK_STR(why.lines[2].text, "check(total);");
}

/* The harness's functions (flagged on either side: a baseline from before the flag has it on
 * neither of its own) are never rows; their change is said apart and stays in the rest. The
 * fill's functions are merged like the region's, the harness's apart. */
static void harness_should_never_be_a_project_row_and_the_fill_merged(void)
{
	struct function_cost base_functions[2] = { FUNCTION("parse", 100.0, true),
						   FUNCTION("costgate_queue_next", 20.0, true) };
	struct function_cost head_functions[2] = { FUNCTION("parse", 130.0, true),
						   FUNCTION("costgate_queue_next", 45.0, true) };
	struct function_cost base_fill[2] = { FUNCTION("make_body", 50.0, true),
					      FUNCTION("encode_block", 10.0, true) };
	struct function_cost head_fill[1] = { FUNCTION("encode_block", 400.0, true) };
	struct measurement base, head;
	struct attribution why;

	memset(&base, 0, sizeof(base));
	memset(&head, 0, sizeof(head));
	head_functions[1].harness = true;
	base.functions = base_functions;
	head.functions = head_functions;
	base.function_count = head.function_count = 2;
	base.slopes[METRIC_INSTRUCTIONS].per_message = 120.0;
	head.slopes[METRIC_INSTRUCTIONS].per_message = 175.0;
	base.fill_functions = base_fill;
	base.fill_function_count = 2;
	head.fill_functions = head_fill;
	head.fill_function_count = 1;
	base.has_fill = head.has_fill = true;
	base.fill_per_message = 70.0;
	head.fill_per_message = 410.0;
	CHECK(attribution_compute(&why, &head, &base) == 0);
	CHECK_U64(why.function_count, 1);
	CHECK_STR(why.functions[0].name, "parse");
	CHECK(why.harness_change == 25.0);
	CHECK(why.rest_change == 25.0);
	CHECK(why.has_fill && why.has_fill_baseline);
	CHECK(why.fill_head == 410.0 && why.fill_baseline == 70.0);
	CHECK_U64(why.fill_count, 2);
	CHECK_STR(why.fill[0].name, "encode_block");
	CHECK(why.fill[0].change == 390.0 && why.fill[0].share_percent == 390.0 / 340.0 * 100.0);
	CHECK(strcmp(why.fill[1].name, "make_body") == 0 && why.fill[1].disappeared);
	/* A project function named like one of the harness's (a library's own `drain`) is its own
	 * row, apart from the harness's `drain`, when both documents tell them apart. */
	{
		struct function_cost named_base[2] = { FUNCTION("drain", 10.0, true),
						       FUNCTION("drain", 40.0, true) };
		struct function_cost named_head[2] = { FUNCTION("drain", 10.0, true),
						       FUNCTION("drain", 90.0, true) };
		struct measurement b2 = base, h2 = head;

		named_base[0].harness = named_head[0].harness = true;
		b2.functions = named_base;
		h2.functions = named_head;
		b2.function_count = h2.function_count = 2;
		b2.slopes[METRIC_INSTRUCTIONS].per_message = 50.0;
		h2.slopes[METRIC_INSTRUCTIONS].per_message = 100.0;
		CHECK(attribution_compute(&why, &h2, &b2) == 0);
		CHECK_U64(why.function_count, 1);
		CHECK(strcmp(why.functions[0].name, "drain") == 0 && why.functions[0].change == 50.0);
		CHECK(why.harness_change == 0.0);
	}
	/* Against a baseline without the fill: the head's own, no baseline figure. */
	base.has_fill = false;
	CHECK(attribution_compute(&why, &head, &base) == 0);
	CHECK(why.has_fill && !why.has_fill_baseline && why.fill_baseline == 0.0);
	CHECK_U64(why.fill_count, 1);
}

/* A function's row of the attribution, its figures drawn from `head`, and the JSON it is
 * written as. */
static struct attribution_function function_row(const char *name, double head)
{
	return (struct attribution_function){ .name = name, .head = head, .baseline = 4,
					      .change = head - 4, .exclusive_change = 5,
					      .inclusive_change = 6, .share_percent = 60,
					      .appeared = true };
}

#define FUNCTION_JSON(name, head, change)                                                     \
	"{\"name\":\"" name "\",\"head\":" head ",\"baseline\":4,\"change\":" change ","       \
	"\"exclusive_change\":5,\"inclusive_change\":6,\"share_percent\":60,\"appeared\":true," \
	"\"disappeared\":false}"

/* results.json's "attribution" member, member by member in its order: the page and readers of
 * the document depend on its keys. Every array holds a row of its own, so that one written from
 * another's rows would show. */
static void json_should_hold_every_row_and_figure_in_order(void)
{
	static struct attribution why;
	const char *expected =
		"{\"functions\":[" FUNCTION_JSON("parse", "10", "6") "],"
		"\"leaves\":[" FUNCTION_JSON("memcpy", "11", "7") "],"
		"\"sites\":[{\"chain\":\"malloc < parse\",\"head_lines\":\"p.c:3\","
		"\"baseline_lines\":\"\",\"head_blocks\":1,\"baseline_blocks\":0,"
		"\"blocks_change\":1,\"bytes_change\":32,\"appeared\":true,\"disappeared\":false}],"
		"\"syscall_functions\":[" FUNCTION_JSON("log_line", "12", "8") "],"
		"\"growing_functions\":[" FUNCTION_JSON("seen_before", "13", "9") "],"
		"\"lines\":[{\"file\":\"p.c\",\"line\":3,\"function\":\"parse\",\"text\":\"n++;\","
		"\"head\":2,\"baseline\":1,\"change\":1,\"appeared\":false,\"disappeared\":true}],"
		"\"syscall_change\":1,\"total_change\":10,\"rest_change\":4,\"rest_share_percent\":40,"
		"\"allocator_change\":0.5,\"harness_change\":-2,"
		"\"fill\":{\"head\":3,\"baseline\":2.5,\"functions\":[" FUNCTION_JSON("fill_queue", "14", "10")
		"]}}";
	cJSON *json;
	char *text;

	why.total_change = 10;
	why.rest_change = 4;
	why.rest_share_percent = 40;
	why.allocator_change = 0.5;
	why.harness_change = -2;
	why.syscall_change = 1;
	why.functions[why.function_count++] = function_row("parse", 10);
	why.leaves[why.leaf_count++] = function_row("memcpy", 11);
	why.syscalls[why.syscall_count++] = function_row("log_line", 12);
	why.growing[why.growing_count++] = function_row("seen_before", 13);
	snprintf(why.sites[0].chain, sizeof(why.sites[0].chain), "malloc < parse");
	snprintf(why.sites[0].head_lines, sizeof(why.sites[0].head_lines), "p.c:3");
	why.sites[0].head_blocks = 1;
	why.sites[0].blocks_change = 1;
	why.sites[0].bytes_change = 32;
	why.sites[0].appeared = true;
	why.site_count = 1;
	why.lines[0] = (struct attribution_line){ .file = "p.c", .line = 3, .function = "parse",
						  .text = "n++;", .head = 2, .baseline = 1,
						  .change = 1, .disappeared = true };
	why.line_count = 1;
	why.has_fill = true;
	why.has_fill_baseline = true;
	why.fill_head = 3;
	why.fill_baseline = 2.5;
	why.fill[why.fill_count++] = function_row("fill_queue", 14);
	json = attribution_to_json(&why);
	CHECK(json != NULL);
	text = json != NULL ? cJSON_PrintUnformatted(json) : NULL;
	CHECK(text != NULL);
	if (text != NULL)
		CHECK_STR(text, expected);
	free(text);
	cJSON_Delete(json);
}

int main(void)
{
	return RUN_CASES(sites_should_be_keyed_by_their_chain_of_functions,
			 function_shares_should_add_up_to_the_whole_change,
			 lines_should_be_matched_by_what_they_are_not_their_number,
			 harness_should_never_be_a_project_row_and_the_fill_merged,
			 json_should_hold_every_row_and_figure_in_order);
}
