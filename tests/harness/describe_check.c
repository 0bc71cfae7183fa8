/* Reads a scenario's --describe output on stdin and checks it is one JSON object with the fields
 * gate relies on. Usage: describe_check NAME [TITLE [STEADY_FLOOR]] < description: with TITLE,
 * the title must read back as exactly that text, and with STEADY_FLOOR, the steady floor as that
 * number. Exit 0 when valid, 1 with the problem on stderr. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problem(const char *name, const char *what)
{
	fprintf(stderr, "describe_check: %s: %s\n", name, what);
	return 1;
}

static int is_count(const cJSON *item)
{
	return cJSON_IsNumber(item) && item->valuedouble >= 0 &&
	       item->valuedouble == floor(item->valuedouble);
}

int main(int argc, char **argv)
{
	static char text[65536];
	size_t length = fread(text, 1, sizeof(text) - 1, stdin);
	const cJSON *floors, *item;
	cJSON *root;
	int status = 1;

	if (argc < 2 || argc > 4)
		return problem("?", "usage: describe_check NAME [TITLE [STEADY_FLOOR]] < description");
	text[length] = '\0';
	root = cJSON_Parse(text);
	if (!cJSON_IsObject(root)) {
		status = problem(argv[1], "not one JSON object");
		goto out;
	}
	item = cJSON_GetObjectItemCaseSensitive(root, "name");
	if (!cJSON_IsString(item) || strcmp(item->valuestring, argv[1]) != 0) {
		status = problem(argv[1], "'name' is not the scenario's name");
		goto out;
	}
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "title")) ||
	    !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(root, "gated"))) {
		status = problem(argv[1], "'title' or 'gated' missing or of the wrong type");
		goto out;
	}
	item = cJSON_GetObjectItemCaseSensitive(root, "region");
	if (!cJSON_IsString(item) || strcmp(item->valuestring, "costgate_measured_region") != 0) {
		status = problem(argv[1], "'region' is not costgate_measured_region");
		goto out;
	}
	floors = cJSON_GetObjectItemCaseSensitive(root, "floors");
	if (!cJSON_IsObject(floors) ||
	    !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(floors, "steady_allocations")) ||
	    cJSON_GetObjectItemCaseSensitive(floors, "steady_allocations")->valuedouble < 0 ||
	    !is_count(cJSON_GetObjectItemCaseSensitive(floors, "cold_allocations"))) {
		status = problem(argv[1], "'floors' lacks steady_allocations or cold_allocations");
		goto out;
	}
	item = cJSON_GetObjectItemCaseSensitive(root, "title");
	if (argc > 2 && strcmp(item->valuestring, argv[2]) != 0) {
		status = problem(argv[1], "'title' does not read back as the declared text");
		goto out;
	}
	if (argc > 3 && cJSON_GetObjectItemCaseSensitive(floors, "steady_allocations")->valuedouble !=
				strtod(argv[3], NULL)) {
		status = problem(argv[1], "'steady_allocations' does not read back as declared");
		goto out;
	}
	item = cJSON_GetObjectItemCaseSensitive(root, "limit_percent");
	if (item != NULL && (!cJSON_IsNumber(item) || item->valuedouble <= 0)) {
		status = problem(argv[1], "'limit_percent' is not a positive number");
		goto out;
	}
	item = cJSON_GetObjectItemCaseSensitive(root, "linearity_percent");
	if (item != NULL && (!cJSON_IsNumber(item) || item->valuedouble <= 0)) {
		status = problem(argv[1], "'linearity_percent' is not a positive number");
		goto out;
	}
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "snapshots"))) {
		status = problem(argv[1], "'snapshots' is not true");
		goto out;
	}
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "phases"))) {
		status = problem(argv[1], "'phases' is not true");
		goto out;
	}
	status = 0;
out:
	cJSON_Delete(root);
	return status;
}
