/* libFuzzer target for the results reader (results_parse in gate/core/results.c), which parses
 * from memory: the input is handed over with its exact length and no terminating NUL, so reading
 * one byte past it is an ASan report. A document that parses must list its scenarios sorted and
 * unique, each found by name, and must read back the same after being written again. The same
 * reader's lenient mode (the page's) must read whatever the strict one read. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>

#include "fuzz_input.h"
#include "json_write.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes what was read as a document again and reads that back: the same scenarios. */
static void check_round_trip(const struct results *results)
{
	struct results again = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *document = results_document(results->measurements, results->count,
					   &results->fingerprint, NULL);
	char *text;
	size_t i;

	FUZZ_REQUIRE(document != NULL);
	text = json_print(document, false, NULL);
	FUZZ_REQUIRE(text != NULL);
	if (results_parse(&again, text, strlen(text), "round trip", &err) != 0) {
		fprintf(stderr, "round trip refused: %s\n", err.message);
		FUZZ_REQUIRE(!"a document gate wrote from what it read must read back");
	}
	FUZZ_REQUIRE(again.count == results->count);
	for (i = 0; i < again.count; i++) {
		const struct measurement *a = &again.measurements[i], *b = &results->measurements[i];

		FUZZ_REQUIRE(strcmp(a->info.name, b->info.name) == 0);
		/* Every metric's counts, and which metrics it has, survive the round trip. */
		FUZZ_REQUIRE(memcmp(a->counts, b->counts, sizeof(a->counts)) == 0);
		FUZZ_REQUIRE(memcmp(a->has, b->has, sizeof(a->has)) == 0);
		FUZZ_REQUIRE(a->messages == b->messages);
	}
	results_release(&again);
	free(text);
	cJSON_Delete(document);
}

/* The lenient read of any JSON value: an error names the source, and what the strict reader
 * took the lenient one takes with as many scenarios. */
static void check_lenient(const char *text, size_t size, const struct results *strict, bool read)
{
	struct results lenient = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	cJSON *root = cJSON_ParseWithLength(text, size);

	if (root == NULL)
		return;
	if (results_from_json(&lenient, root, "fuzz.json", true, &err) != 0) {
		FUZZ_REQUIRE(strstr(err.message, "fuzz.json") != NULL || strstr(err.message, "memory"));
		FUZZ_REQUIRE(!read);
	} else if (read) {
		FUZZ_REQUIRE(lenient.count == strict->count);
	}
	results_release(&lenient);
	cJSON_Delete(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results results = RESULTS_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	/* An exact-size copy: libFuzzer's buffer is exact too, but a copy keeps the input const. */
	char *text = malloc(size ? size : 1);
	size_t i;

	FUZZ_REQUIRE(text != NULL);
	if (size > 0)
		memcpy(text, data, size);
	if (results_parse(&results, text, size, "fuzz.json", &err) != 0) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		FUZZ_REQUIRE(strstr(err.message, "fuzz.json") != NULL);
		check_lenient(text, size, &results, false);
	} else {
		check_lenient(text, size, &results, true);
		for (i = 0; i < results.count; i++) {
			const struct measurement *measurement = &results.measurements[i];

			FUZZ_REQUIRE(i == 0 || strcmp(results.measurements[i - 1].info.name,
						      measurement->info.name) < 0);
			FUZZ_REQUIRE(results_find(&results, measurement->info.name) == measurement);
		}
		check_round_trip(&results);
	}
	results_release(&results);
	free(text);
	return 0;
}
