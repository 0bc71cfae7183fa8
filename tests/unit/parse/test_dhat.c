/* Unit tests of the DHAT parser, on the trimmed files in tests/fixtures/dhat and on real.json, which
 * valgrind 3.19 wrote for tests/fixtures/dhat/real.c (its totals were read by hand, not by gate). */
#define FIXTURES "dhat"
#include "check.h"
#include "fixture.h"
#include "dhat.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define REGION "measured_region"

/* The profile of the fixture `name` under `region` (REGION when NULL), which must parse. */
static struct dhat_profile parsed(const char *name, const char *region)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(dhat_profile_parse(&profile, fixture(name), region != NULL ? region : REGION, &err) == 0);
	CHECK_STR(err.message, "");
	return profile;
}

static void check_released(const struct dhat_profile *profile)
{
	CHECK(profile->sites == NULL);
	CHECK_U64(profile->site_count, 0);
	CHECK_U64(profile->blocks, 0);
	CHECK_U64(profile->bytes, 0);
	CHECK_U64(profile->all_blocks, 0);
	CHECK_U64(profile->all_bytes, 0);
	CHECK_U64(profile->deepest_stack, 0);
}

static void check_site(const struct dhat_site *site, const char *location, const char *stack,
		       uint64_t blocks, uint64_t bytes)
{
	CHECK_STR(site->location, location);
	CHECK_STR(site->stack, stack);
	CHECK_U64(site->blocks, blocks);
	CHECK_U64(site->bytes, bytes);
}

/* Totals read by hand from real.json: under measured_region, the calloc then realloc of the state
 * (DHAT puts both blocks on the calloc's point, 32 + 100 bytes), five 24-byte bodies and five
 * 7-byte strdup copies; outside it 1000, 50 and 40 bytes, one block each. */
static void dhat_should_total_the_real_profile_as_read_by_hand(void)
{
	struct dhat_profile profile = parsed("real.json", NULL);

	CHECK_U64(profile.blocks, 12);
	CHECK_U64(profile.bytes, 287);
	CHECK_U64(profile.all_blocks, 15);
	CHECK_U64(profile.all_bytes, 1377);
	CHECK_U64(profile.deepest_stack, 6);
	CHECK_U64(profile.instructions, 156976); /* "te": the whole process, in "instrs" */
	CHECK_U64(profile.peak_bytes, 1100);     /* every point's "gb", summed: "At t-gmax" */
	CHECK(!profile.peak_unknown);
	CHECK_U64(profile.site_count, 3);
	if (profile.site_count == 3) {
		check_site(&profile.sites[0], "measured_region_helper (real.c:11)",
			   "measured_region_helper (real.c:11) < parse_body (real.c:32) < "
			   "handle_message (real.c:39)", 5, 120);
		check_site(&profile.sites[1], "strdup (strdup.c:42)",
			   "strdup (strdup.c:42) < copy_name (real.c:25) < handle_message (real.c:40)",
			   5, 35);
		check_site(&profile.sites[2], "measured_region (real.c:47)", "", 2, 132);
	}
	dhat_profile_release(&profile);
}

/* A fixture's totals under a region: blocks and bytes under it, in the whole process, sites,
 * the deepest stack and the process's instructions ("te", 0 without it). */
struct totals {
	const char *name;
	const char *fixture, *region;
	uint64_t blocks, bytes, all_blocks, all_bytes;
	size_t site_count, deepest_stack;
	uint64_t instructions;
};

static const struct totals totals[] = {
	{ "dhat_should_count_only_points_under_the_region", "region.json", NULL, 4 + 1 + 2,
	  400 + 16 + 20, 4 + 10 + 1 + 100 + 2, 400 + 1000 + 16 + 100 + 20, 2, 4, 200000 },
	{ "dhat_should_not_match_a_frame_named_like_a_prefix_or_suffix_of_the_region",
	  "near-names.json", NULL, 0, 0, 21, 155, 0, 3, 0 },
	{ "dhat_should_match_a_region_named_like_a_helper_exactly", "near-names.json",
	  "measured_region_helper", 1, 50, 21, 155, 1, 3, 0 },
	{ "dhat_should_aggregate_sites_with_the_same_location_and_stack", "sites.json", NULL, 27, 757,
	  36, 1657, 5, 6, 0 },
	{ "dhat_should_report_the_deepest_stack", "deep.json", NULL, 2, 16, 2, 16, 1, 13, 0 },
	{ "dhat_should_count_above_2_to_the_31_exactly", "large-counts.json", NULL,
	  UINT64_C(3000000000) + UINT64_C(1500000000), UINT64_C(5000000000000) + UINT64_C(4294967296),
	  UINT64_C(4500000000) + UINT64_C(9007199254740991),
	  UINT64_C(5004294967296) + UINT64_C(9007199254740991), 1, 4, 0 },
	{ "dhat_should_accept_a_file_without_mode_or_te", "no-mode.json", NULL, 1, 16, 1, 16, 1, 3, 0 },
	{ "dhat_should_accept_an_empty_pps_array", "empty-pps.json", NULL, 0, 0, 0, 0, 0, 0, 0 },
};

static void check_totals(const struct totals *row)
{
	struct dhat_profile profile = parsed(row->fixture, row->region);

	CHECK_U64(profile.blocks, row->blocks);
	CHECK_U64(profile.bytes, row->bytes);
	CHECK_U64(profile.all_blocks, row->all_blocks);
	CHECK_U64(profile.all_bytes, row->all_bytes);
	CHECK_U64(profile.site_count, row->site_count);
	CHECK_U64(profile.deepest_stack, row->deepest_stack);
	CHECK_U64(profile.instructions, row->instructions);
	dhat_profile_release(&profile);
	check_released(&profile);
}

static void dhat_should_total_what_it_reads(void)
{
	RUN_ROWS(check_totals, totals);
}

/* One site of a fixture (under REGION), by its place in the sorted sites. */
struct site {
	const char *name;
	const char *fixture;
	size_t index;
	const char *location, *stack;
	uint64_t blocks, bytes;
};

/* sites.json's five, sorted by blocks, then location, then stack. */
static const struct site sites[] = {
	{ "dhat_should_skip_allocator_frames_under_malloc_for_the_location", "sites.json", 0,
	  "zlib_alloc (service.c:80)", "zlib_alloc (service.c:80)", 7, 7 },
	/* Under operator new, in valgrind's vgpreload object. */
	{ "dhat_should_skip_allocator_frames_under_operator_new_for_the_location", "sites.json", 1,
	  "append_name (service.c:70)", "append_name (service.c:70) < handle_message (service.c:48)", 5,
	  50 },
	{ "dhat_should_name_the_object_of_a_site_without_debug_info", "sites.json", 2,
	  "cJSON_ParseWithLengthOpts (in /usr/lib/x86_64-linux-gnu/libcjson.so.1.7.15)",
	  "cJSON_ParseWithLengthOpts (in /usr/lib/x86_64-linux-gnu/libcjson.so.1.7.15)"
	  " < decode (service.c:60) < handle_message (service.c:44)", 5, 500 },
	{ "dhat_should_sum_the_points_of_one_location_and_stack_into_a_site", "sites.json", 3,
	  "parse_body (service.c:20)", "parse_body (service.c:20) < handle_message (service.c:40)",
	  2 + 3, 64 + 96 },
	{ "dhat_should_sort_sites_of_one_location_by_stack", "sites.json", 4,
	  "parse_body (service.c:20)", "parse_body (service.c:20) < handle_message (service.c:48)", 5,
	  40 },
	{ "dhat_should_count_a_point_once_when_the_region_is_on_its_stack_twice", "region.json", 1,
	  "measured_region (harness.c:44)", "", 1 + 2, 16 + 20 },
	{ "dhat_should_keep_a_site_outside_the_region_by_its_own_stack", "region.json", 0,
	  "start_service (service.c:10)", "start_service (service.c:10)", 4, 400 },
	{ "dhat_should_keep_at_most_six_frames_of_a_stack", "deep.json", 0, "depth_1 (deep.c:1)",
	  "depth_1 (deep.c:1) < depth_2 (deep.c:2) < depth_3 (deep.c:3) < depth_4 (deep.c:4) < "
	  "depth_5 (deep.c:5) < depth_6 (deep.c:6)", 2, 16 },
	{ "dhat_should_count_a_site_above_2_to_the_31_exactly", "large-counts.json", 0,
	  "grow_buffer (service.c:12)", "grow_buffer (service.c:12)", UINT64_C(4500000000),
	  UINT64_C(5000000000000) + UINT64_C(4294967296) },
};

static void check_one_site(const struct site *row)
{
	struct dhat_profile profile = parsed(row->fixture, NULL);

	CHECK(profile.site_count > row->index);
	if (profile.site_count > row->index)
		check_site(&profile.sites[row->index], row->location, row->stack, row->blocks,
			   row->bytes);
	dhat_profile_release(&profile);
}

static void dhat_should_make_sites_of_locations_and_stacks(void)
{
	RUN_ROWS(check_one_site, sites);
}

/* A fixture refused under a region (REGION when NULL), and the message after naming the file:
 * "cannot parse 'PATH': ", or "cannot open" where it says so. */
struct refused {
	const char *name;
	const char *fixture, *region, *problem;
	bool cannot_open;
};

static const struct refused refusals[] = {
	{ "dhat_should_name_a_missing_pps", "missing-pps.json", NULL, "missing key 'pps'", false },
	{ "dhat_should_name_a_missing_ftbl", "missing-ftbl.json", NULL, "missing key 'ftbl'", false },
	{ "dhat_should_name_a_missing_file_version", "missing-version.json", NULL,
	  "missing key 'dhatFileVersion'", false },
	{ "dhat_should_name_a_missing_tbk_with_its_index", "missing-tbk.json", NULL,
	  "missing key 'pps[1].tbk'", false },
	{ "dhat_should_name_a_missing_tb_with_its_index", "missing-tb.json", NULL,
	  "missing key 'pps[1].tb'", false },
	{ "dhat_should_name_a_missing_fs_with_its_index", "missing-fs.json", NULL,
	  "missing key 'pps[1].fs'", false },
	{ "dhat_should_reject_a_top_level_that_is_not_an_object", "top-level-array.json", NULL,
	  "the top level is not an object", false },
	{ "dhat_should_reject_pps_that_is_not_an_array", "pps-not-array.json", NULL,
	  "pps is not an array", false },
	{ "dhat_should_reject_ftbl_that_is_not_an_array", "ftbl-not-array.json", NULL,
	  "ftbl is not an array", false },
	{ "dhat_should_reject_an_ftbl_entry_that_is_not_a_string", "ftbl-entry-not-string.json", NULL,
	  "ftbl[2] is not a string", false },
	{ "dhat_should_reject_a_point_that_is_not_an_object", "point-not-object.json", NULL,
	  "pps[1] is not an object", false },
	{ "dhat_should_reject_fs_that_is_not_an_array", "fs-not-array.json", NULL,
	  "pps[1].fs is not an array", false },
	{ "dhat_should_reject_an_fs_entry_that_is_a_string", "fs-entry-string.json", NULL,
	  "pps[1].fs[1] is not a non-negative integer", false },
	{ "dhat_should_reject_a_negative_count", "negative-count.json", NULL,
	  "pps[1].tbk is not a non-negative integer", false },
	{ "dhat_should_reject_a_fractional_count", "fractional-count.json", NULL,
	  "pps[1].tb is not a non-negative integer", false },
	{ "dhat_should_reject_a_count_of_1e30", "huge-count.json", NULL,
	  "pps[1].tbk is not a non-negative integer", false },
	{ "dhat_should_reject_a_count_of_2_to_the_53_that_a_double_cannot_hold_exactly",
	  "count-of-2-to-the-53.json", NULL, "pps[1].tb is not a non-negative integer", false },
	{ "dhat_should_reject_a_count_written_as_a_string", "string-count.json", NULL,
	  "pps[1].tbk is not a non-negative integer", false },
	{ "dhat_should_reject_an_fs_index_outside_ftbl", "fs-index-out-of-range.json", NULL,
	  "pps[1].fs[1] is 4, outside ftbl (4 entries)", false },
	{ "dhat_should_reject_a_negative_fs_index", "fs-index-negative.json", NULL,
	  "pps[1].fs[1] is not a non-negative integer", false },
	{ "dhat_should_reject_text_that_is_not_json", "not-json.json", NULL, "not JSON (at byte 0)",
	  false },
	{ "dhat_should_reject_an_empty_file", "empty.json", NULL, "not JSON (at byte 0)", false },
	{ "dhat_should_name_the_byte_offset_of_a_syntax_error", "missing-comma.json", NULL,
	  "not JSON (at byte 75)", false },
	{ "dhat_should_refuse_a_key_given_twice_in_one_object", "duplicate-key.json", NULL,
	  "the key 'tbk' appears twice in one object", false },
	{ "dhat_should_reject_truncated_json", "truncated.json", NULL, "not JSON (at byte 699)",
	  false },
	{ "dhat_should_reject_text_after_the_json_value", "text-after-value.json", NULL,
	  "text after the JSON value (at byte 84)", false },
	{ "dhat_should_reject_a_mode_other_than_heap", "mode-copy.json", NULL,
	  "mode is 'copy', expected 'heap' (run DHAT without --mode)", false },
	{ "dhat_should_reject_a_dhat_file_version_other_than_2", "version-3.json", NULL,
	  "dhatFileVersion is 3, expected 2", false },
	{ "dhat_should_reject_a_dhat_file_version_that_is_not_a_number", "version-string.json", NULL,
	  "dhatFileVersion is not a number", false },
	{ "dhat_should_report_a_missing_file", "no-such-file.json", NULL, "No such file or directory",
	  true },
	{ "dhat_should_reject_an_empty_region_name", "real.json", "", "no region function given",
	  false },
};

/* Parses the row's fixture, which fails with the whole message and leaves nothing behind. */
static void check_refused(const struct refused *row)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(dhat_profile_parse(&profile, fixture(row->fixture),
				 row->region != NULL ? row->region : REGION, &err) == -1);
	CHECK_ABOUT_FIXTURE(err.message, row->cannot_open ? "cannot open" : "cannot parse", row->fixture,
			    row->problem);
	check_released(&profile);
	dhat_profile_release(&profile);
}

static void dhat_should_refuse_every_malformed_fixture(void)
{
	RUN_ROWS(check_refused, refusals);
}

static void dhat_profile_release_should_accept_null_and_a_released_profile(void)
{
	struct dhat_profile profile = parsed("real.json", NULL);

	dhat_profile_release(NULL);
	dhat_profile_release(&profile);
	check_released(&profile);
	dhat_profile_release(&profile);
	check_released(&profile);
}

int main(void)
{
	return RUN_CASES(dhat_should_total_the_real_profile_as_read_by_hand,
			 dhat_should_total_what_it_reads,
			 dhat_should_make_sites_of_locations_and_stacks,
			 dhat_should_refuse_every_malformed_fixture,
			 dhat_profile_release_should_accept_null_and_a_released_profile);
}
