/* What code below cmd/ says, handed to cmd/ (say.h). */
#define _GNU_SOURCE
#include "say.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void say_line(const struct say *say, const char *format, ...)
{
	char *text = NULL;
	va_list args;
	int length;

	if (say == NULL || say->line == NULL)
		return;
	va_start(args, format);
	length = vasprintf(&text, format, args);
	va_end(args);
	if (length >= 0) {
		say->line(say->context, text);
		free(text);
	}
}
