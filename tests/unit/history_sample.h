/* A history document both the history tests (core/) and the chart tests (out/) read: three
 * versions, the second measured with another compiler; consume_json's instructions rise
 * (accepted) then rise again. */
#ifndef COSTGATE_TEST_HISTORY_SAMPLE_H
#define COSTGATE_TEST_HISTORY_SAMPLE_H

#include <cjson/cJSON.h>

#include "history.h"

static const char history_sample[] =
	"{\"costgate_history\":\"1\",\"ref\":\"refs/heads/main\",\"tip\":\"c3\","
	"\"path\":\"baselines/main.json\",\"versions\":["
	"{\"commit\":\"c1full\",\"short\":\"c1\",\"date\":\"2024-01-01\",\"subject\":\"Add <it>\","
	"\"fingerprint_change\":null},"
	"{\"commit\":\"c2full\",\"short\":\"c2\",\"date\":\"2024-01-02\",\"subject\":\"gcc 13\","
	"\"fingerprint_change\":\"compiler: GNU 12 -> GNU 13\"},"
	"{\"commit\":\"c3full\",\"short\":\"c3\",\"date\":\"2024-01-03\",\"subject\":\"Check\","
	"\"fingerprint_change\":null}],\"skipped\":[],\"series\":["
	"{\"scenario\":\"consume_json\",\"metric\":\"instructions\",\"drift_percent\":0,\"points\":["
	"{\"version\":0,\"value\":1000,\"change_percent\":null,\"accepted\":null},"
	"{\"version\":1,\"value\":1100,\"change_percent\":0,\"accepted\":\"a reason\"},"
	"{\"version\":2,\"value\":1210,\"change_percent\":0,\"accepted\":null}]}]}";

/* `text` read as gate report reads a history file. */
static inline int history_sample_read(struct history *history, const char *text, struct gate_error *err)
{
	cJSON *parsed = cJSON_Parse(text);
	int status = history_from_json(history, parsed, "fixture.json", err);

	cJSON_Delete(parsed);
	return status;
}

#endif
