/* Writes a synthetic suite's results without running anything: a baseline of K scenarios, the
 * head as one shard (1/1) and as M shards (split as gate --shard splits), through gate's own
 * writer, so gate merge can read, compare and merge thousands of scenarios in seconds.
 * Scenario i costs 200 + (i % 13) * 100 instructions a message and 300 + i cold, allocates
 * nothing; scenario REGRESS (1-based, 0 for none) costs 10 % more per message in the head.
 * Usage: make_results DIR K N M REGRESS */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "environment.h"
#include "results.h"

static struct environment synthetic_environment(void)
{
	static char text[] = "synthetic";
	struct environment environment = {
		.cpu = text, .architecture = text, .cores = text, .memory = text, .os = text,
		.compiler = text, .flags = text, .valgrind = text, .glibc = text, .cjson = text,
		.dispatch_pin = text, .schema = GATE_SCHEMA_VERSION,
	};

	return environment;
}

static int fill(struct measurement *measurement, size_t index, uint64_t messages, bool regressed)
{
	uint64_t per_message = 200 + (index % 13) * 100, cold = 300 + index;
	struct gate_error err = GATE_ERROR_INIT;
	char name[32];

	if (regressed)
		per_message += per_message / 10;
	snprintf(name, sizeof(name), "s%05zu", index);
	memset(measurement, 0, sizeof(*measurement));
	measurement->info.name = strdup(name);
	measurement->info.path = strdup(name);
	measurement->info.title = strdup("synthetic scenario");
	measurement->info.region = strdup("costgate_measured_region");
	measurement->info.gated = true;
	measurement->messages = messages;
	measurement->has[METRIC_INSTRUCTIONS] = true;
	measurement->has[METRIC_ALLOCATIONS] = true;
	measurement->has[METRIC_BYTES] = true;
	measurement->counts[METRIC_INSTRUCTIONS][SLOPE_ONE] = cold;
	measurement->counts[METRIC_INSTRUCTIONS][SLOPE_N] = cold + (messages - 1) * per_message;
	measurement->counts[METRIC_INSTRUCTIONS][SLOPE_TWICE_N] = cold + (2 * messages - 1) * per_message;
	if (measurement->info.name == NULL || measurement->info.path == NULL ||
	    measurement->info.title == NULL || measurement->info.region == NULL ||
	    measurement_compute(measurement, &err) != 0) {
		fprintf(stderr, "make_results: %s\n", err.message[0] ? err.message : "out of memory");
		return -1;
	}
	return 0;
}

/* Shard `index` of `count` (1/1: all), as manifest_shard splits the sorted names. */
static int write_shard(const char *path, struct measurement *all, size_t total, unsigned index,
		       unsigned count, char **names)
{
	struct environment environment = synthetic_environment();
	struct measurement *mine = calloc(total + 1, sizeof(*mine));
	struct gate_error err = GATE_ERROR_INIT;
	size_t used = 0, i;
	cJSON *document = NULL;
	int status = -1;

	if (mine == NULL)
		goto out;
	for (i = 0; i < total; i++)
		if (count == 0 || i % count == index - 1)
			mine[used++] = all[i];
	document = results_document(mine, used, &environment, NULL);
	if (document == NULL ||
	    (count > 0 && results_add_shard(document, index, count, (const char *const *)names,
					    total, false) != 0))
		goto out;
	status = results_write_file(document, path, &err);
	if (status != 0)
		fprintf(stderr, "make_results: %s\n", err.message);
out:
	cJSON_Delete(document);
	free(mine);
	return status;
}

int main(int argc, char **argv)
{
	struct measurement *base, *head;
	size_t total, regress, i;
	uint64_t messages;
	unsigned shards, k;
	char **names, path[4096];
	int status = 1;

	if (argc != 6) {
		fprintf(stderr, "usage: make_results DIR K N M REGRESS\n");
		return 2;
	}
	total = strtoull(argv[2], NULL, 10);
	messages = strtoull(argv[3], NULL, 10);
	shards = (unsigned)strtoul(argv[4], NULL, 10);
	regress = strtoull(argv[5], NULL, 10);
	base = calloc(total + 1, sizeof(*base));
	head = calloc(total + 1, sizeof(*head));
	names = calloc(total + 1, sizeof(*names));
	if (base == NULL || head == NULL || names == NULL || total == 0 || messages < 2 || shards < 1)
		return 2;
	for (i = 0; i < total; i++) {
		if (fill(&base[i], i + 1, messages, false) != 0 ||
		    fill(&head[i], i + 1, messages, i + 1 == regress) != 0)
			goto out;
		names[i] = head[i].info.name;
	}
	snprintf(path, sizeof(path), "%s/baseline.json", argv[1]);
	if (write_shard(path, base, total, 0, 0, names) != 0)
		goto out;
	snprintf(path, sizeof(path), "%s/whole.json", argv[1]);
	if (write_shard(path, head, total, 1, 1, names) != 0)
		goto out;
	for (k = 1; k <= shards; k++) {
		snprintf(path, sizeof(path), "%s/shard-%u-of-%u.json", argv[1], k, shards);
		if (write_shard(path, head, total, k, shards, names) != 0)
			goto out;
	}
	status = 0;
out:
	for (i = 0; i < total; i++) {
		measurement_release(&base[i]);
		measurement_release(&head[i]);
	}
	free(base);
	free(head);
	free(names);
	return status;
}
