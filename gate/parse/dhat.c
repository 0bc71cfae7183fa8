/* Parses DHAT's JSON profile into the allocations made under the measured region, with the sites
 * that made them. Every shape is checked before it is used, and counts are read from the double
 * cJSON holds only when they are exact integers below 2^53. Sites are keyed by their frames' text,
 * not frame ids: DHAT gives each return address its own ftbl entry, so one source line called
 * from an unrolled loop appears several times under different addresses. */
#include "dhat.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "fs.h"
#include "json_read.h"

#define DHAT_FILE_VERSION 2
#define DHAT_STACK_SEPARATOR " < "

/* One ftbl entry, described once so that the walk over the points only compares flags. */
struct dhat_frame {
	const char *text;  /* the entry without its "0x...: " address; points into the cJSON tree */
	bool is_allocator; /* valgrind's replacement malloc/calloc/realloc/new (vgpreload_*.so) */
	bool is_region;    /* the function is exactly the region */
};

/* What the walk over the program points carries from one point to the next. */
struct dhat_walk {
	const struct dhat_frame *frames; /* the described ftbl */
	size_t frame_count;
	size_t *frame_ids;               /* the current point's fs, innermost first */
	size_t frame_id_capacity;
	struct dhat_site *sites;         /* one per counted point, until merged */
	size_t site_count;
	size_t site_capacity;
};

static int dhat_check_header(const cJSON *root, struct gate_error *err)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "dhatFileVersion");
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(root, "mode");

	if (version == NULL)
		return gate_error_set(err, "missing key 'dhatFileVersion'");
	if (!cJSON_IsNumber(version))
		return gate_error_set(err, "dhatFileVersion is not a number");
	if (version->valuedouble != DHAT_FILE_VERSION)
		return gate_error_set(err, "dhatFileVersion is %.17g, expected %d",
				      version->valuedouble, DHAT_FILE_VERSION);
	if (mode == NULL)
		return 0;
	if (!cJSON_IsString(mode))
		return gate_error_set(err, "mode is not a string");
	if (strcmp(mode->valuestring, "heap") != 0)
		return gate_error_set(err, "mode is '%s', expected 'heap' (run DHAT without --mode)",
				      mode->valuestring);
	return 0;
}

/* Skips the "0x48407B4: " every frame but "[root]" starts with. */
static const char *dhat_skip_address(const char *entry)
{
	const char *cursor = entry;

	if (strncmp(cursor, "0x", 2) != 0)
		return entry;
	cursor += 2;
	while ((*cursor >= '0' && *cursor <= '9') || (*cursor >= 'a' && *cursor <= 'f') ||
	       (*cursor >= 'A' && *cursor <= 'F'))
		cursor++;
	return strncmp(cursor, ": ", 2) == 0 ? cursor + 2 : entry;
}

/* The location is the last " (...)" that ends the text: a C++ name may hold " (" itself, as in
 * "f(int (*)(int))", a file:line or an object path hardly ever does. The end of text when none. */
static const char *dhat_find_location(const char *text)
{
	size_t length = strlen(text);
	const char *location = NULL;
	const char *cursor = text;

	if (length == 0 || text[length - 1] != ')')
		return text + length;
	while ((cursor = strstr(cursor, " (")) != NULL) {
		location = cursor;
		cursor++;
	}
	return location != NULL ? location : text + length;
}

/* " (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)": valgrind's own allocator. */
static bool dhat_is_allocator_location(const char *location)
{
	size_t length = strlen(location);
	const char *object;
	const char *base;

	if (strncmp(location, " (in ", 5) != 0 || length < 6 || location[length - 1] != ')')
		return false;
	object = location + 5;
	base = object;
	for (const char *cursor = object; cursor < location + length - 1; cursor++) {
		if (*cursor == '/')
			base = cursor + 1;
	}
	return strncmp(base, "vgpreload_", strlen("vgpreload_")) == 0;
}

static void dhat_describe_frame(struct dhat_frame *frame, const char *entry, const char *region)
{
	const char *text = dhat_skip_address(entry);
	const char *location = dhat_find_location(text);
	size_t name_length = (size_t)(location - text);

	frame->text = text;
	frame->is_allocator = dhat_is_allocator_location(location);
	frame->is_region = !frame->is_allocator && name_length == strlen(region) &&
			   memcmp(text, region, name_length) == 0;
}

static int dhat_describe_frames(struct dhat_frame **frames, size_t *frame_count, const cJSON *ftbl,
				const char *region, struct gate_error *err)
{
	const cJSON *entry;
	size_t count = (size_t)cJSON_GetArraySize(ftbl);
	size_t index = 0;

	*frames = calloc(count > 0 ? count : 1, sizeof(**frames));
	if (*frames == NULL)
		return gate_error_oom(err);
	cJSON_ArrayForEach(entry, ftbl) {
		if (!cJSON_IsString(entry))
			return gate_error_set(err, "ftbl[%zu] is not a string", index);
		dhat_describe_frame(&(*frames)[index], entry->valuestring, region);
		index++;
	}
	*frame_count = count;
	return 0;
}

static int dhat_read_count(const cJSON *point, size_t point_index, const char *key, uint64_t *count,
			   struct gate_error *err)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(point, key);

	if (item == NULL)
		return gate_error_set(err, "missing key 'pps[%zu].%s'", point_index, key);
	if (!json_read_count(item, count))
		return gate_error_set(err, "pps[%zu].%s is not a non-negative integer", point_index, key);
	return 0;
}

static int dhat_add_count(uint64_t *total, uint64_t count, size_t point_index, const char *key,
			  struct gate_error *err)
{
	if (*total > UINT64_MAX - count)
		return gate_error_set(err, "the total of %s overflows at pps[%zu]", key, point_index);
	*total += count;
	return 0;
}

/* Reads a point's fs into walk->frame_ids, checking every index against ftbl. */
static int dhat_read_frames(struct dhat_walk *walk, const cJSON *point, size_t point_index,
			    size_t *depth, struct gate_error *err)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(point, "fs");
	const cJSON *item;
	size_t count;
	size_t index = 0;

	if (fs == NULL)
		return gate_error_set(err, "missing key 'pps[%zu].fs'", point_index);
	if (!cJSON_IsArray(fs))
		return gate_error_set(err, "pps[%zu].fs is not an array", point_index);
	count = (size_t)cJSON_GetArraySize(fs);
	if (count > walk->frame_id_capacity) {
		size_t *grown = realloc(walk->frame_ids, count * sizeof(*grown));

		if (grown == NULL)
			return gate_error_oom(err);
		walk->frame_ids = grown;
		walk->frame_id_capacity = count;
	}
	cJSON_ArrayForEach(item, fs) {
		uint64_t frame_id;

		if (!json_read_count(item, &frame_id))
			return gate_error_set(err, "pps[%zu].fs[%zu] is not a non-negative integer",
					      point_index, index);
		if (frame_id >= walk->frame_count)
			return gate_error_set(err, "pps[%zu].fs[%zu] is %" PRIu64 ", outside ftbl (%zu entries)",
					      point_index, index, frame_id,
					      walk->frame_count);
		walk->frame_ids[index++] = (size_t)frame_id;
	}
	*depth = index;
	return 0;
}

static char *dhat_copy_text(const char *text)
{
	size_t size = strlen(text) + 1;
	char *copy = malloc(size);

	if (copy != NULL)
		memcpy(copy, text, size);
	return copy;
}

/* Joins the frames [first, end) of the current point, at most DHAT_STACK_FRAMES of them. */
static char *dhat_join_stack(const struct dhat_walk *walk, size_t first, size_t end)
{
	size_t separator_length = strlen(DHAT_STACK_SEPARATOR);
	size_t size = 1;
	char *stack;
	char *cursor;

	if (end - first > DHAT_STACK_FRAMES)
		end = first + DHAT_STACK_FRAMES;
	for (size_t index = first; index < end; index++)
		size += strlen(walk->frames[walk->frame_ids[index]].text) + separator_length;
	stack = malloc(size);
	if (stack == NULL)
		return NULL;
	cursor = stack;
	for (size_t index = first; index < end; index++) {
		const char *text = walk->frames[walk->frame_ids[index]].text;
		size_t length = strlen(text);

		if (index > first) {
			memcpy(cursor, DHAT_STACK_SEPARATOR, separator_length);
			cursor += separator_length;
		}
		memcpy(cursor, text, length);
		cursor += length;
	}
	*cursor = '\0';
	return stack;
}

/* Records one counted point as a site; equal sites are merged once every point is read. */
static int dhat_push_site(struct dhat_walk *walk, size_t site, size_t region, uint64_t blocks,
			  uint64_t bytes, struct gate_error *err)
{
	struct dhat_site *pushed;

	if (ARRAY_GROW(walk->sites, walk->site_capacity, walk->site_count, 16) != 0)
		return gate_error_oom(err);
	pushed = &walk->sites[walk->site_count];
	pushed->location = dhat_copy_text(walk->frames[walk->frame_ids[site]].text);
	pushed->stack = dhat_join_stack(walk, site, region);
	pushed->blocks = blocks;
	pushed->bytes = bytes;
	walk->site_count++; /* counted even when a copy failed, so that release frees the other */
	if (pushed->location == NULL || pushed->stack == NULL)
		return gate_error_oom(err);
	return 0;
}

static int dhat_read_point(struct dhat_walk *walk, struct dhat_profile *profile, const cJSON *point,
			   size_t point_index, struct gate_error *err)
{
	uint64_t blocks = 0;
	uint64_t bytes = 0;
	uint64_t at_peak = 0;
	size_t depth = 0;
	size_t site = 0;
	size_t region = 0;

	if (!cJSON_IsObject(point))
		return gate_error_set(err, "pps[%zu] is not an object", point_index);
	if (dhat_read_count(point, point_index, "tbk", &blocks, err) < 0 ||
	    dhat_read_count(point, point_index, "tb", &bytes, err) < 0 ||
	    dhat_read_frames(walk, point, point_index, &depth, err) < 0 ||
	    dhat_add_count(&profile->all_blocks, blocks, point_index, "tbk", err) < 0 ||
	    dhat_add_count(&profile->all_bytes, bytes, point_index, "tb", err) < 0)
		return -1;
	/* "gb" is written only when DHAT tracked block lifetimes (heap mode): without it the peak is
	 * not known, which the caller decides about. */
	if (cJSON_GetObjectItemCaseSensitive(point, "gb") == NULL) {
		profile->peak_unknown = true;
	} else if (dhat_read_count(point, point_index, "gb", &at_peak, err) < 0 ||
		   dhat_add_count(&profile->peak_bytes, at_peak, point_index, "gb", err) < 0) {
		return -1;
	}
	if (depth > profile->deepest_stack)
		profile->deepest_stack = depth;
	while (region < depth && !walk->frames[walk->frame_ids[region]].is_region)
		region++;
	if (region == depth)
		return 0;
	/* The region frame is not an allocator frame, so the site is found at or before it. */
	while (walk->frames[walk->frame_ids[site]].is_allocator)
		site++;
	if (dhat_add_count(&profile->blocks, blocks, point_index, "tbk", err) < 0 ||
	    dhat_add_count(&profile->bytes, bytes, point_index, "tb", err) < 0)
		return -1;
	return dhat_push_site(walk, site, region, blocks, bytes, err);
}

static int dhat_compare_site_key(const void *left, const void *right)
{
	const struct dhat_site *a = left;
	const struct dhat_site *b = right;
	int order = strcmp(a->location, b->location);

	return order != 0 ? order : strcmp(a->stack, b->stack);
}

static int dhat_compare_site_rank(const void *left, const void *right)
{
	const struct dhat_site *a = left;
	const struct dhat_site *b = right;

	if (a->blocks != b->blocks)
		return a->blocks > b->blocks ? -1 : 1;
	return dhat_compare_site_key(left, right);
}

/* Merges the points' sites with equal location and stack, then ranks them. The sums cannot
 * overflow: they are bounded by profile->blocks and profile->bytes, already checked. */
static void dhat_merge_sites(struct dhat_walk *walk)
{
	size_t kept = 0;

	if (walk->site_count == 0)
		return;
	qsort(walk->sites, walk->site_count, sizeof(*walk->sites), dhat_compare_site_key);
	for (size_t index = 1; index < walk->site_count; index++) {
		struct dhat_site *site = &walk->sites[index];

		if (dhat_compare_site_key(&walk->sites[kept], site) == 0) {
			walk->sites[kept].blocks += site->blocks;
			walk->sites[kept].bytes += site->bytes;
			free(site->location);
			free(site->stack);
		} else {
			walk->sites[++kept] = *site;
		}
	}
	walk->site_count = kept + 1;
	qsort(walk->sites, walk->site_count, sizeof(*walk->sites), dhat_compare_site_rank);
}

static int dhat_read_points(struct dhat_profile *profile, const cJSON *pps, const cJSON *ftbl,
			    const char *region, struct gate_error *err)
{
	struct dhat_walk walk = { 0 };
	struct dhat_frame *frames = NULL;
	const cJSON *point;
	size_t point_index = 0;
	int result = -1;

	if (dhat_describe_frames(&frames, &walk.frame_count, ftbl, region, err) < 0)
		goto out;
	walk.frames = frames;
	cJSON_ArrayForEach(point, pps) {
		if (dhat_read_point(&walk, profile, point, point_index, err) < 0)
			goto out;
		point_index++;
	}
	dhat_merge_sites(&walk);
	profile->sites = walk.sites;
	profile->site_count = walk.site_count;
	walk.sites = NULL;
	walk.site_count = 0;
	result = 0;
out:
	for (size_t index = 0; index < walk.site_count; index++) {
		free(walk.sites[index].location);
		free(walk.sites[index].stack);
	}
	free(walk.sites);
	free(walk.frame_ids);
	free(frames);
	return result;
}

/* "te" in "instrs": what the whole process executed. Optional here (0 when the file has none or
 * counts time in other units); the measurement requires it. */
static int dhat_read_instructions(struct dhat_profile *profile, const cJSON *root,
				  struct gate_error *err)
{
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(root, "tu");
	const cJSON *end = cJSON_GetObjectItemCaseSensitive(root, "te");

	if (!cJSON_IsString(unit) || strcmp(unit->valuestring, "instrs") != 0 || end == NULL)
		return 0;
	if (!json_read_count(end, &profile->instructions))
		return gate_error_set(err, "te is not a non-negative integer");
	return 0;
}

static int dhat_read_profile(struct dhat_profile *profile, const cJSON *root, const char *region,
			     struct gate_error *err)
{
	const cJSON *pps;
	const cJSON *ftbl;

	if (!cJSON_IsObject(root))
		return gate_error_set(err, "the top level is not an object");
	if (dhat_check_header(root, err) < 0)
		return -1;
	pps = cJSON_GetObjectItemCaseSensitive(root, "pps");
	if (pps == NULL)
		return gate_error_set(err, "missing key 'pps'");
	if (!cJSON_IsArray(pps))
		return gate_error_set(err, "pps is not an array");
	ftbl = cJSON_GetObjectItemCaseSensitive(root, "ftbl");
	if (ftbl == NULL)
		return gate_error_set(err, "missing key 'ftbl'");
	if (dhat_read_instructions(profile, root, err) < 0)
		return -1;
	if (!cJSON_IsArray(ftbl))
		return gate_error_set(err, "ftbl is not an array");
	return dhat_read_points(profile, pps, ftbl, region, err);
}

int dhat_profile_parse(struct dhat_profile *profile, const char *path, const char *region,
		       struct gate_error *err)
{
	struct dhat_profile parsed = DHAT_PROFILE_INIT;
	char *text = NULL;
	size_t length = 0;
	cJSON *root = NULL;
	int result = -1;

	*profile = parsed;
	if (region == NULL || region[0] == '\0') {
		gate_error_set(err, "cannot parse '%s': no region function given", path);
		goto out;
	}
	if (fs_read_file(path, FS_READ_LIMIT, &text, &length) != 0) {
		gate_error_set(err, "cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	if ((root = json_read_document(text, length, err)) == NULL ||
	    dhat_read_profile(&parsed, root, region, err) < 0) {
		gate_error_prefix(err, "cannot parse '%s'", path);
		goto out;
	}
	*profile = parsed;
	parsed = (struct dhat_profile)DHAT_PROFILE_INIT;
	result = 0;
out:
	dhat_profile_release(&parsed);
	cJSON_Delete(root);
	free(text);
	return result;
}

static void dhat_site_release(struct dhat_site *site)
{
	free(site->location);
	free(site->stack);
}

void dhat_profile_release(struct dhat_profile *profile)
{
	if (profile == NULL)
		return;
	ARRAY_RELEASE(profile->sites, profile->site_count, dhat_site_release);
	*profile = (struct dhat_profile)DHAT_PROFILE_INIT;
}
