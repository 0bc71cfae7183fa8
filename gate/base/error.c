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
	err->kind = GATE_ERROR_NONE;
	return -1;
}

int gate_error_oom(struct gate_error *err)
{
	if (err == NULL)
		return -1;
	snprintf(err->message, sizeof(err->message), "out of memory");
	err->kind = GATE_ERROR_NO_MEMORY;
	return -1;
}

bool gate_error_is_oom(const struct gate_error *err)
{
	return err != NULL && err->kind == GATE_ERROR_NO_MEMORY;
}

int gate_error_prefix(struct gate_error *err, const char *format, ...)
{
	char rest[sizeof(err->message)];
	size_t used;
	va_list args;

	if (err == NULL)
		return -1;
	memcpy(rest, err->message, sizeof(rest));
	va_start(args, format);
	vsnprintf(err->message, sizeof(err->message), format, args);
	va_end(args);
	used = strlen(err->message);
	snprintf(err->message + used, sizeof(err->message) - used, ": %.*s",
		 (int)(sizeof(err->message) - used), rest);
	return -1;
}
