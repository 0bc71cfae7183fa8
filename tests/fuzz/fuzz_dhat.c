/* libFuzzer target for the DHAT parser (gate/dhat.c): any bytes as a DHAT output file, read for
 * the region "costgate_measured_region". Besides ASan and UBSan, a parsed profile must keep the
 * promises of dhat.h: the region's totals within the file's, the sites sorted as documented and
 * summing to the region's totals; a refused file leaves the profile empty and says why. */
#define _GNU_SOURCE
#include <string.h>

#include "dhat.h"
#include "fuzz_input.h"

#define FUZZ_REGION "costgate_measured_region"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* dhat.h's order: blocks descending, then location, then stack. */
static int site_order(const struct dhat_site *a, const struct dhat_site *b)
{
	int order;

	if (a->blocks != b->blocks)
		return a->blocks > b->blocks ? -1 : 1;
	order = strcmp(a->location, b->location);
	return order != 0 ? order : strcmp(a->stack, b->stack);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dhat_profile profile = DHAT_PROFILE_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	uint64_t blocks = 0, bytes = 0;
	size_t i;

	if (dhat_profile_parse(&profile, fuzz_input_path(data, size), FUZZ_REGION, &err) != 0) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		FUZZ_REQUIRE(profile.sites == NULL && profile.site_count == 0);
		FUZZ_REQUIRE(profile.blocks == 0 && profile.all_blocks == 0);
		return 0;
	}
	FUZZ_REQUIRE(profile.blocks <= profile.all_blocks);
	FUZZ_REQUIRE(profile.bytes <= profile.all_bytes);
	for (i = 0; i < profile.site_count; i++) {
		const struct dhat_site *site = &profile.sites[i];

		FUZZ_REQUIRE(site->location != NULL && site->stack != NULL);
		FUZZ_REQUIRE(i == 0 || site_order(&profile.sites[i - 1], site) < 0);
		blocks += site->blocks;
		bytes += site->bytes;
	}
	FUZZ_REQUIRE(blocks == profile.blocks);
	FUZZ_REQUIRE(bytes == profile.bytes);
	dhat_profile_release(&profile);
	FUZZ_REQUIRE(profile.sites == NULL && profile.site_count == 0);
	return 0;
}
