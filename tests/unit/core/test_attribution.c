/* Unit tests of attribution: allocation sites are keyed by their chain of functions, not by line,
 * and the rows whose blocks per message changed come first. */
#include "attribution.h"
#include "check.h"

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

int main(void)
{
	RUN(sites_should_survive_lines_inserted_above_them);
	RUN(sites_of_one_chain_should_be_summed_and_show_every_line);
	RUN(sites_whose_blocks_changed_should_come_first);
	RUN(sites_without_lines_should_still_have_a_chain);
	return CHECK_EXIT();
}
