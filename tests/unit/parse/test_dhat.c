/* Unit tests of the DHAT parser, on the trimmed files in tests/fixtures/dhat and on real.json, which
 * valgrind 3.19 wrote for tests/fixtures/dhat/real.c (its totals were read by hand, not by gate). */
#include "check.h"
#include "dhat.h"

#include <stdint.h>
#include <stdio.h>

#define REGION "measured_region"

static const char *fixture(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/dhat/%s", FIXTURE_DIR, name);
	return path;
}

static int parse(struct dhat_profile *profile, const char *name, struct gate_error *err)
{
	return dhat_profile_parse(profile, fixture(name), REGION, err);
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

/* Parses a fixture that must fail and checks the whole message and the released profile. */
static void check_parse_error(const char *name, const char *problem)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char expected[sizeof(err.message)];

	CHECK(parse(&profile, name, &err) == -1);
	snprintf(expected, sizeof(expected), "cannot parse '%s': %s", fixture(name), problem);
	CHECK_STR(err.message, expected);
	check_released(&profile);
	dhat_profile_release(&profile);
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
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "real.json", &err) == 0);
	CHECK_STR(err.message, "");
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

static void dhat_should_leave_the_process_count_at_zero_without_te(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "no-mode.json", &err) == 0);
	CHECK_U64(profile.instructions, 0);
	dhat_profile_release(&profile);
}

static void dhat_should_count_only_points_under_the_region(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "region.json", &err) == 0);
	CHECK_U64(profile.blocks, 4 + 1 + 2);
	CHECK_U64(profile.bytes, 400 + 16 + 20);
	CHECK_U64(profile.all_blocks, 4 + 10 + 1 + 100 + 2);
	CHECK_U64(profile.all_bytes, 400 + 1000 + 16 + 100 + 20);
	dhat_profile_release(&profile);
}

static void dhat_should_count_a_point_once_when_the_region_is_on_its_stack_twice(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "region.json", &err) == 0);
	CHECK_U64(profile.site_count, 2);
	if (profile.site_count == 2) {
		check_site(&profile.sites[0], "start_service (service.c:10)",
			   "start_service (service.c:10)", 4, 400);
		check_site(&profile.sites[1], "measured_region (harness.c:44)", "", 1 + 2, 16 + 20);
	}
	dhat_profile_release(&profile);
}

static void dhat_should_not_match_a_frame_named_like_a_prefix_or_suffix_of_the_region(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "near-names.json", &err) == 0);
	CHECK_U64(profile.blocks, 0);
	CHECK_U64(profile.bytes, 0);
	CHECK_U64(profile.site_count, 0);
	CHECK_U64(profile.all_blocks, 21);
	dhat_profile_release(&profile);
}

static void dhat_should_match_a_region_named_like_a_helper_exactly(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(dhat_profile_parse(&profile, fixture("near-names.json"), "measured_region_helper",
				 &err) == 0);
	CHECK_U64(profile.blocks, 1);
	CHECK_U64(profile.bytes, 50);
	dhat_profile_release(&profile);
}

static void dhat_should_aggregate_sites_with_the_same_location_and_stack(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "sites.json", &err) == 0);
	CHECK_U64(profile.blocks, 27);
	CHECK_U64(profile.bytes, 757);
	CHECK_U64(profile.site_count, 5);
	if (profile.site_count == 5)
		check_site(&profile.sites[3], "parse_body (service.c:20)",
			   "parse_body (service.c:20) < handle_message (service.c:40)", 2 + 3, 64 + 96);
	dhat_profile_release(&profile);
}

static void dhat_should_sort_sites_by_blocks_then_location_then_stack(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "sites.json", &err) == 0);
	CHECK_U64(profile.site_count, 5);
	if (profile.site_count == 5) {
		CHECK_STR(profile.sites[0].location, "zlib_alloc (service.c:80)");
		CHECK_STR(profile.sites[1].location, "append_name (service.c:70)");
		CHECK_STR(profile.sites[2].location, "cJSON_ParseWithLengthOpts "
			  "(in /usr/lib/x86_64-linux-gnu/libcjson.so.1.7.15)");
		CHECK_STR(profile.sites[3].stack,
			  "parse_body (service.c:20) < handle_message (service.c:40)");
		CHECK_STR(profile.sites[4].stack,
			  "parse_body (service.c:20) < handle_message (service.c:48)");
		CHECK_U64(profile.sites[0].blocks, 7);
		CHECK_U64(profile.sites[4].blocks, 5);
	}
	dhat_profile_release(&profile);
}

static void dhat_should_skip_allocator_frames_for_the_location(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "sites.json", &err) == 0);
	CHECK_U64(profile.site_count, 5);
	if (profile.site_count == 5) {
		/* under operator new, in valgrind's vgpreload object */
		check_site(&profile.sites[1], "append_name (service.c:70)",
			   "append_name (service.c:70) < handle_message (service.c:48)", 5, 50);
		/* under malloc */
		check_site(&profile.sites[0], "zlib_alloc (service.c:80)", "zlib_alloc (service.c:80)",
			   7, 7);
	}
	dhat_profile_release(&profile);
}

static void dhat_should_name_the_object_of_a_site_without_debug_info(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "sites.json", &err) == 0);
	CHECK_U64(profile.site_count, 5);
	if (profile.site_count == 5)
		check_site(&profile.sites[2],
			   "cJSON_ParseWithLengthOpts (in /usr/lib/x86_64-linux-gnu/libcjson.so.1.7.15)",
			   "cJSON_ParseWithLengthOpts (in /usr/lib/x86_64-linux-gnu/libcjson.so.1.7.15)"
			   " < decode (service.c:60) < handle_message (service.c:44)", 5, 500);
	dhat_profile_release(&profile);
}

static void dhat_should_keep_at_most_six_frames_of_a_stack(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "deep.json", &err) == 0);
	CHECK_U64(profile.site_count, 1);
	if (profile.site_count == 1)
		check_site(&profile.sites[0], "depth_1 (deep.c:1)",
			   "depth_1 (deep.c:1) < depth_2 (deep.c:2) < depth_3 (deep.c:3) < "
			   "depth_4 (deep.c:4) < depth_5 (deep.c:5) < depth_6 (deep.c:6)", 2, 16);
	dhat_profile_release(&profile);
}

static void dhat_should_report_the_deepest_stack(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "deep.json", &err) == 0);
	CHECK_U64(profile.deepest_stack, 13);
	dhat_profile_release(&profile);
}

static void dhat_should_count_above_2_to_the_31_exactly(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "large-counts.json", &err) == 0);
	CHECK_U64(profile.blocks, UINT64_C(3000000000) + UINT64_C(1500000000));
	CHECK_U64(profile.bytes, UINT64_C(5000000000000) + UINT64_C(4294967296));
	CHECK_U64(profile.all_blocks, UINT64_C(4500000000) + UINT64_C(9007199254740991));
	CHECK_U64(profile.all_bytes, UINT64_C(5004294967296) + UINT64_C(9007199254740991));
	CHECK_U64(profile.site_count, 1);
	if (profile.site_count == 1)
		CHECK_U64(profile.sites[0].blocks, UINT64_C(4500000000));
	dhat_profile_release(&profile);
}

static void dhat_should_accept_an_empty_pps_array(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "empty-pps.json", &err) == 0);
	CHECK_STR(err.message, "");
	check_released(&profile);
	dhat_profile_release(&profile);
}

static void dhat_should_accept_a_file_without_mode(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(parse(&profile, "no-mode.json", &err) == 0);
	CHECK_U64(profile.blocks, 1);
	dhat_profile_release(&profile);
}

static void dhat_should_name_a_missing_top_level_key(void)
{
	check_parse_error("missing-pps.json", "missing key 'pps'");
	check_parse_error("missing-ftbl.json", "missing key 'ftbl'");
	check_parse_error("missing-version.json", "missing key 'dhatFileVersion'");
}

static void dhat_should_name_a_missing_point_key_with_its_index(void)
{
	check_parse_error("missing-tbk.json", "missing key 'pps[1].tbk'");
	check_parse_error("missing-tb.json", "missing key 'pps[1].tb'");
	check_parse_error("missing-fs.json", "missing key 'pps[1].fs'");
}

static void dhat_should_reject_values_of_the_wrong_type(void)
{
	check_parse_error("top-level-array.json", "the top level is not an object");
	check_parse_error("pps-not-array.json", "pps is not an array");
	check_parse_error("ftbl-not-array.json", "ftbl is not an array");
	check_parse_error("ftbl-entry-not-string.json", "ftbl[2] is not a string");
	check_parse_error("point-not-object.json", "pps[1] is not an object");
	check_parse_error("fs-not-array.json", "pps[1].fs is not an array");
	check_parse_error("fs-entry-string.json", "pps[1].fs[1] is not a non-negative integer");
}

static void dhat_should_reject_a_negative_count(void)
{
	check_parse_error("negative-count.json", "pps[1].tbk is not a non-negative integer");
}

static void dhat_should_reject_a_fractional_count(void)
{
	check_parse_error("fractional-count.json", "pps[1].tb is not a non-negative integer");
}

static void dhat_should_reject_a_count_of_1e30(void)
{
	check_parse_error("huge-count.json", "pps[1].tbk is not a non-negative integer");
}

static void dhat_should_reject_a_count_of_2_to_the_53_that_a_double_cannot_hold_exactly(void)
{
	check_parse_error("count-of-2-to-the-53.json", "pps[1].tb is not a non-negative integer");
}

static void dhat_should_reject_a_count_written_as_a_string(void)
{
	check_parse_error("string-count.json", "pps[1].tbk is not a non-negative integer");
}

static void dhat_should_reject_an_fs_index_outside_ftbl(void)
{
	check_parse_error("fs-index-out-of-range.json", "pps[1].fs[1] is 4, outside ftbl (4 entries)");
	check_parse_error("fs-index-negative.json", "pps[1].fs[1] is not a non-negative integer");
}

static void dhat_should_reject_text_that_is_not_json(void)
{
	check_parse_error("not-json.json", "not JSON (at byte 0)");
	check_parse_error("empty.json", "not JSON (at byte 0)");
}

static void dhat_should_refuse_a_key_given_twice_in_one_object(void)
{
	check_parse_error("duplicate-key.json", "the key 'tbk' appears twice in one object");
}

static void dhat_should_name_the_byte_offset_of_a_syntax_error(void)
{
	check_parse_error("missing-comma.json", "not JSON (at byte 75)");
}

static void dhat_should_reject_truncated_json(void)
{
	check_parse_error("truncated.json", "not JSON (at byte 699)");
}

static void dhat_should_reject_text_after_the_json_value(void)
{
	check_parse_error("text-after-value.json", "text after the JSON value (at byte 84)");
}

static void dhat_should_reject_a_mode_other_than_heap(void)
{
	check_parse_error("mode-copy.json", "mode is 'copy', expected 'heap' (run DHAT without --mode)");
}

static void dhat_should_reject_a_dhat_file_version_other_than_2(void)
{
	check_parse_error("version-3.json", "dhatFileVersion is 3, expected 2");
	check_parse_error("version-string.json", "dhatFileVersion is not a number");
}

static void dhat_should_report_a_missing_file(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char expected[sizeof(err.message)];

	CHECK(parse(&profile, "no-such-file.json", &err) == -1);
	snprintf(expected, sizeof(expected), "cannot open '%s': No such file or directory",
		 fixture("no-such-file.json"));
	CHECK_STR(err.message, expected);
	check_released(&profile);
}

static void dhat_should_reject_an_empty_region_name(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(dhat_profile_parse(&profile, fixture("real.json"), "", &err) == -1);
	CHECK_CONTAINS(err.message, "no region function given");
	check_released(&profile);
}

static void dhat_profile_release_should_accept_null_and_a_released_profile(void)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;

	dhat_profile_release(NULL);
	CHECK(parse(&profile, "real.json", &err) == 0);
	dhat_profile_release(&profile);
	check_released(&profile);
	dhat_profile_release(&profile);
	check_released(&profile);
}

int main(void)
{
	RUN(dhat_should_total_the_real_profile_as_read_by_hand);
	RUN(dhat_should_leave_the_process_count_at_zero_without_te);
	RUN(dhat_should_count_only_points_under_the_region);
	RUN(dhat_should_count_a_point_once_when_the_region_is_on_its_stack_twice);
	RUN(dhat_should_not_match_a_frame_named_like_a_prefix_or_suffix_of_the_region);
	RUN(dhat_should_match_a_region_named_like_a_helper_exactly);
	RUN(dhat_should_aggregate_sites_with_the_same_location_and_stack);
	RUN(dhat_should_sort_sites_by_blocks_then_location_then_stack);
	RUN(dhat_should_skip_allocator_frames_for_the_location);
	RUN(dhat_should_name_the_object_of_a_site_without_debug_info);
	RUN(dhat_should_keep_at_most_six_frames_of_a_stack);
	RUN(dhat_should_report_the_deepest_stack);
	RUN(dhat_should_count_above_2_to_the_31_exactly);
	RUN(dhat_should_accept_an_empty_pps_array);
	RUN(dhat_should_accept_a_file_without_mode);
	RUN(dhat_should_name_a_missing_top_level_key);
	RUN(dhat_should_name_a_missing_point_key_with_its_index);
	RUN(dhat_should_reject_values_of_the_wrong_type);
	RUN(dhat_should_reject_a_negative_count);
	RUN(dhat_should_reject_a_fractional_count);
	RUN(dhat_should_reject_a_count_of_1e30);
	RUN(dhat_should_reject_a_count_of_2_to_the_53_that_a_double_cannot_hold_exactly);
	RUN(dhat_should_reject_a_count_written_as_a_string);
	RUN(dhat_should_reject_an_fs_index_outside_ftbl);
	RUN(dhat_should_reject_text_that_is_not_json);
	RUN(dhat_should_name_the_byte_offset_of_a_syntax_error);
	RUN(dhat_should_refuse_a_key_given_twice_in_one_object);
	RUN(dhat_should_reject_truncated_json);
	RUN(dhat_should_reject_text_after_the_json_value);
	RUN(dhat_should_reject_a_mode_other_than_heap);
	RUN(dhat_should_reject_a_dhat_file_version_other_than_2);
	RUN(dhat_should_report_a_missing_file);
	RUN(dhat_should_reject_an_empty_region_name);
	RUN(dhat_profile_release_should_accept_null_and_a_released_profile);
	return CHECK_EXIT();
}
