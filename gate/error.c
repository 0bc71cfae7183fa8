/* The one place error messages are formatted. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int gate_error_set(struct gate_error *err, const char *format, ...)
{
	va_list args;

	if (err == NULL)
		return -1;
	va_start(args, format);
	vsnprintf(err->message, sizeof(err->message), format, args);
	va_end(args);
	return -1;
}

int gate_error_prefix(struct gate_error *err, const char *format, ...)
{
	char prefix[512];
	char rest[sizeof(err->message)];
	va_list args;

	if (err == NULL)
		return -1;
	va_start(args, format);
	vsnprintf(prefix, sizeof(prefix), format, args);
	va_end(args);
	memcpy(rest, err->message, sizeof(rest));
	snprintf(err->message, sizeof(err->message), "%s: %s", prefix, rest);
	return -1;
}
