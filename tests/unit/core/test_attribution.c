/* Unit tests of attribution: allocation sites are keyed by their chain of functions, not by line,
 * and the rows whose blocks per message changed come first. */
#include "attribution.h"
#include "check.h"

#include <stdio.h>
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

/* Ten lines inserted above every site, one malloc added in a new function: one new row. */
static void sites_should_survive_lines_inserted_above_them(void)
{
	struct site_cost base_sites[] = {
		SITE("make_order (lib.c:20)", "make_order (lib.c:20) < handle (s.c:9) < drain (h.c:5)", 1, 32),
		SITE("make_note (lib.c:31)", "make_note (lib.c:31) < handle (s.c:9) < drain (h.c:5)", 2, 64),
	};
	struct site_cost head_sites[] = {
		SITE("make_order (lib.c:30)", "make_order (lib.c:30) < handle (s.c:9) < drain (h.c:5)", 1, 32),
		SITE("make_note (lib.c:41)", "make_note (lib.c:41) < handle (s.c:9) < drain (h.c:5)", 2, 64),
		SITE("make_tag (lib.c:52)", "make_tag (lib.c:52) < handle (s.c:10) < drain (h.c:5)", 1, 16),
	};
	struct measurement base = with_sites(base_sites, 2), head = with_sites(head_sites, 3);
	struct attribution why;

	CHECK(attribution_compute(&why, &head, &base) == 0);
	CHECK_U64(why.site_count, 1);
	CHECK_STR(why.sites[0].chain, "make_tag < handle < drain");
	CHECK(why.sites[0].appeared && !why.sites[0].disappeared);
	CHECK(why.sites[0].blocks_change == 1.0);
	CHECK_STR(why.sites[0].head_lines, "lib.c:52");
	CHECK_STR(why.sites[0].baseline_lines, "");
}

/* A second malloc in a function that had one: the same chain, changed, with both lines. */
static void sites_of_one_chain_should_be_summed_and_show_every_line(void)
{
	struct site_cost base_sites[] = {
		SITE("make_order (lib.c:20)", "make_order (lib.c:20) < handle (s.c:9)", 1, 32),
	};
	struct site_cost head_sites[] = {
		SITE("make_order (lib.c:24)", "make_order (lib.c:24) < handle (s.c:9)", 1, 32),
		SITE("make_order (lib.c:27)", "make_order (lib.c:27) < handle (s.c:9)", 1, 8),
	};
	struct measurement base = with_sites(base_sites, 1), head = with_sites(head_sites, 2);
	struct attribution why;

	CHECK(attribution_compute(&why, &head, &base) == 0);
	CHECK_U64(why.site_count, 1);
	CHECK_STR(why.sites[0].chain, "make_order < handle");
	CHECK(!why.sites[0].appeared && !why.sites[0].disappeared);
	CHECK(why.sites[0].head_blocks == 2.0 && why.sites[0].baseline_blocks == 1.0);
	CHECK(why.sites[0].bytes_change == 8.0);
	CHECK_STR(why.sites[0].head_lines, "lib.c:24, lib.c:27");
	CHECK_STR(why.sites[0].baseline_lines, "lib.c:20");
}

/* A site whose bytes moved a lot but whose blocks did not comes after one whose blocks moved. */
static void sites_whose_blocks_changed_should_come_first(void)
{
	struct site_cost base_sites[] = {
		SITE("grow (lib.c:5)", "grow (lib.c:5) < handle (s.c:9)", 1, 64),
		SITE("gone_one (lib.c:9)", "gone_one (lib.c:9) < handle (s.c:9)", 1, 8),
	};
	struct site_cost head_sites[] = {
		SITE("grow (lib.c:5)", "grow (lib.c:5) < handle (s.c:9)", 1, 4096),
	};
	struct measurement base = with_sites(base_sites, 2), head = with_sites(head_sites, 1);
	struct attribution why;

	CHECK(attribution_compute(&why, &head, &base) == 0);
	CHECK_U64(why.site_count, 2);
	CHECK_STR(why.sites[0].chain, "gone_one < handle");
	CHECK(why.sites[0].disappeared);
	CHECK_STR(why.sites[0].baseline_lines, "lib.c:9");
	CHECK_STR(why.sites[1].chain, "grow < handle");
	CHECK(why.sites[1].blocks_change == 0 && why.sites[1].bytes_change == 4032);
}

/* Frames without debug information ("f (in lib.so)") have a chain and no line. */
static void sites_without_lines_should_still_have_a_chain(void)
{
	struct site_cost head_sites[] = {
		SITE("cJSON_New_Item (in /usr/lib/libcjson.so)",
		     "cJSON_New_Item (in /usr/lib/libcjson.so) < parse (s.c:3)", 3, 192),
	};
	struct measurement head = with_sites(head_sites, 1);
	struct attribution why;

	CHECK(attribution_compute(&why, &head, NULL) == 0);
	CHECK_U64(why.site_count, 1);
	CHECK_STR(why.sites[0].chain, "cJSON_New_Item < parse");
	CHECK_STR(why.sites[0].head_lines, "");
	CHECK(!why.sites[0].appeared);
}

#define FUNCTION(name, per_message, project) \
	{ (char *)(name), (per_message), (per_message), 0, (per_message), (project) }

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

int main(void)
{
	RUN(sites_should_survive_lines_inserted_above_them);
	RUN(sites_of_one_chain_should_be_summed_and_show_every_line);
	RUN(sites_whose_blocks_changed_should_come_first);
	RUN(sites_without_lines_should_still_have_a_chain);
	RUN(function_shares_should_add_up_to_the_whole_change);
	return CHECK_EXIT();
}
