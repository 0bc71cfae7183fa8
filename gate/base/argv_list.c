/* Argument vectors grown as they are built (argv_list.h). */
#define _GNU_SOURCE
#include "argv_list.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

/* Takes `owned` (a string this list now owns) as the next argument; NULL is a failure. */
static void append(struct argv_list *list, char *owned)
{
	if (owned == NULL || list->failed) {
		free(owned);
		list->failed = true;
		return;
	}
	if (list->count == list->capacity) {
		size_t capacity = list->capacity == 0 ? 8 : list->capacity * 2;
		char **grown = realloc(list->items, (capacity + 1) * sizeof(*grown));

		if (grown == NULL) {
			free(owned);
			list->failed = true;
			return;
		}
		list->items = grown;
		list->capacity = capacity;
	}
	list->items[list->count++] = owned;
	list->items[list->count] = NULL;
}

void argv_list_add(struct argv_list *list, const char *argument)
{
	append(list, argument != NULL ? strdup(argument) : NULL);
}

void argv_list_addf(struct argv_list *list, const char *format, ...)
{
	char *text = NULL;
	va_list arguments;

	va_start(arguments, format);
	if (vasprintf(&text, format, arguments) < 0)
		text = NULL;
	va_end(arguments);
	append(list, text);
}

void argv_list_add_all(struct argv_list *list, const char *const *arguments)
{
	for (; arguments != NULL && *arguments != NULL; arguments++)
		argv_list_add(list, *arguments);
}

char *const *argv_list_vector(const struct argv_list *list)
{
	return list->failed || list->count == 0 ? NULL : list->items;
}

void argv_list_release(struct argv_list *list)
{
	if (list == NULL)
		return;
	array_free_strings(list->items, list->count);
	*list = (struct argv_list)ARGV_LIST_INIT;
}
