/* The JSON writer (json_write.h). The layout follows cJSON's printer: objects one key a line,
 * indented with tabs, a tab after the colon; arrays on one line, ", " between elements. */
#define _GNU_SOURCE
#include "json_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void write_value(FILE *out, const cJSON *item, bool formatted, size_t depth);

void json_number_text(char *text, size_t size, double value)
{
	int digits;

	if (isnan(value) || isinf(value)) {
		snprintf(text, size, "null");
		return;
	}
	if (value == 0) { /* -0 too, as cJSON writes it */
		snprintf(text, size, "0");
		return;
	}
	/* 15 digits when they read back, as cJSON; else 17, which always do. */
	for (digits = 15; digits <= 17; digits += 2) {
		snprintf(text, size, "%1.*g", digits, value);
		if (strtod(text, NULL) == value)
			return;
	}
}

static void write_number(FILE *out, double value)
{
	char text[32];

	json_number_text(text, sizeof(text), value);
	fputs(text, out);
}

static void write_string(FILE *out, const char *text)
{
	const unsigned char *at = (const unsigned char *)(text != NULL ? text : "");

	fputc('"', out);
	for (; *at != '\0'; at++) {
		switch (*at) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*at < 0x20)
				fprintf(out, "\\u%04x", *at);
			else
				fputc(*at, out);
		}
	}
	fputc('"', out);
}

static void indent(FILE *out, size_t depth)
{
	while (depth-- > 0)
		fputc('\t', out);
}

static void write_object(FILE *out, const cJSON *item, bool formatted, size_t depth)
{
	const cJSON *child;

	fputc('{', out);
	if (formatted)
		fputc('\n', out);
	for (child = item->child; child != NULL; child = child->next) {
		if (formatted)
			indent(out, depth + 1);
		write_string(out, child->string);
		fputc(':', out);
		if (formatted)
			fputc('\t', out);
		write_value(out, child, formatted, depth + 1);
		if (child->next != NULL)
			fputc(',', out);
		if (formatted)
			fputc('\n', out);
	}
	if (formatted)
		indent(out, depth);
	fputc('}', out);
}

static void write_array(FILE *out, const cJSON *item, bool formatted, size_t depth)
{
	const cJSON *child;

	fputc('[', out);
	for (child = item->child; child != NULL; child = child->next) {
		write_value(out, child, formatted, depth + 1);
		if (child->next != NULL)
			fputs(formatted ? ", " : ",", out);
	}
	fputc(']', out);
}

static void write_value(FILE *out, const cJSON *item, bool formatted, size_t depth)
{
	switch (item->type & 0xff) {
	case cJSON_False:
		fputs("false", out);
		break;
	case cJSON_True:
		fputs("true", out);
		break;
	case cJSON_Number:
		write_number(out, item->valuedouble);
		break;
	case cJSON_String:
		write_string(out, item->valuestring);
		break;
	case cJSON_Raw:
		fputs(item->valuestring != NULL ? item->valuestring : "", out);
		break;
	case cJSON_Array:
		write_array(out, item, formatted, depth);
		break;
	case cJSON_Object:
		write_object(out, item, formatted, depth);
		break;
	default: /* cJSON_NULL */
		fputs("null", out);
	}
}

char *json_print(const cJSON *item, bool formatted, size_t *length)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (out == NULL)
		return NULL;
	if (item != NULL)
		write_value(out, item, formatted, 0);
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	if (length != NULL)
		*length = size;
	return text;
}
