/* The JSON writer: every number reads back to the same double, and the layout is cJSON's own,
 * byte for byte, wherever cJSON's numbers are exact (tests/export/results.json is one such
 * document, written by cJSON and read here). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fs.h"
#include "json_read.h"
#include "json_write.h"

/* The value printed alone reads back bitwise equal; `text`, when given, is the exact text. */
static void check_number(double value, const char *text)
{
	cJSON *item = cJSON_CreateNumber(value);
	char *printed = json_print(item, false, NULL);
	double back;

	CHECK(printed != NULL);
	if (printed == NULL)
		return;
	back = strtod(printed, NULL);
	CHECK(memcmp(&back, &value, sizeof(back)) == 0 || (value == 0 && back == 0));
	if (text != NULL)
		CHECK_STR(printed, text);
	free(printed);
	cJSON_Delete(item);
}

static void json_print_should_write_numbers_that_read_back_exactly(void)
{
	double sevenths;
	int i, lossy = 0;

	check_number(0.1 + 0.2, "0.30000000000000004"); /* cJSON: "0.3" */
	check_number(9007199254740991.0, "9007199254740991"); /* cJSON: "9.00719925474099e+15" */
	check_number(4503599627370495.5, "4503599627370495.5");
	check_number(17412.48, "17412.48");
	check_number(47, "47");
	check_number(-3, "-3");
	check_number(-0.0, "0");
	check_number(1e300, "1e+300");
	check_number(5e-324, NULL);
	check_number(-1.0 / 3.0, NULL);
	/* Per-message figures of a run with 7 messages: many are rounded by cJSON's own printer. */
	for (i = 1; i < 2000; i++) {
		cJSON *item;
		char *text;

		sevenths = (470000000.0 + i * 7919.0) / 7.0;
		check_number(sevenths, NULL);
		item = cJSON_CreateNumber(sevenths);
		text = cJSON_PrintUnformatted(item);
		lossy += strtod(text, NULL) != sevenths;
		cJSON_free(text);
		cJSON_Delete(item);
	}
	CHECK(lossy > 0); /* what this writer is for: cJSON alone loses some of them */
	{
		cJSON *nan = cJSON_CreateNumber(NAN);
		char *text = json_print(nan, false, NULL);

		CHECK_STR(text, "null");
		free(text);
		cJSON_Delete(nan);
	}
}

/* Both writers on the same document: the same text, formatted and not. */
static void check_same_as_cjson(const cJSON *document)
{
	char *ours = json_print(document, true, NULL), *theirs = cJSON_Print(document);

	CHECK(ours != NULL && theirs != NULL);
	if (ours != NULL && theirs != NULL)
		CHECK_STR(ours, theirs);
	free(ours);
	cJSON_free(theirs);
	ours = json_print(document, false, NULL);
	theirs = cJSON_PrintUnformatted(document);
	if (ours != NULL && theirs != NULL)
		CHECK_STR(ours, theirs);
	free(ours);
	cJSON_free(theirs);
}

static void json_print_should_lay_out_a_document_as_cjson_does(void)
{
	static const char text[] =
		"{\"name\":\"a \\\"quoted\\\" \\\\ name\\n\\t\\u0001 caf\xc3\xa9\",\"empty\":{},"
		"\"none\":[],\"list\":[1,2.5,-7,{\"deep\":[true,false,null,{}]},\"x\"],"
		"\"nested\":{\"a\":{\"b\":[[1],[2,3]]}},\"big\":4000000000000,\"small\":1e-7}";
	cJSON *document = cJSON_Parse(text);

	CHECK(document != NULL);
	check_same_as_cjson(document);
	cJSON_Delete(document);
}

static void json_print_should_write_a_results_document_as_cjson_did(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *text = NULL, *ours;
	size_t length = 0;
	cJSON *document;

	CHECK(fs_read_file(FIXTURE_DIR "/../export/results.json", 1 << 20, &text, &length) == 0);
	document = text != NULL ? json_read_document(text, length, &err) : NULL;
	CHECK(document != NULL);
	if (document != NULL) {
		check_same_as_cjson(document);
		ours = json_print(document, true, &length);
		CHECK(ours != NULL && length == strlen(ours));
		free(ours);
	}
	cJSON_Delete(document);
	free(text);
}

int main(void)
{
	return RUN_CASES(json_print_should_write_numbers_that_read_back_exactly,
			 json_print_should_lay_out_a_document_as_cjson_does,
			 json_print_should_write_a_results_document_as_cjson_did);
}
