/* A minimal test runner for the unit tests: cases are functions named as sentences, each check
 * that fails prints the file, line and expression (after the name of the table row it was
 * checking, if any), and the executable exits 1 when any failed.
 *
 *   int main(void)
 *   {
 *           return RUN_CASES(module_should_do_this, module_should_do_that);
 *   }
 *
 * A case that checks the same thing on several inputs keeps them in a table whose rows name
 * themselves as cases do (a member `name`, a sentence) and runs them with RUN_ROWS. */
#ifndef COSTGATE_CHECK_H
#define COSTGATE_CHECK_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

/* The name of the table row RUN_ROWS is checking, which each failure names; NULL between rows. */
static const char *check_row;

/* Counts a failure and says where: "FILE:LINE: [ROW: ]what". */
__attribute__((format(printf, 3, 4)))
static inline void check_failed(const char *file, int line, const char *format, ...)
{
	va_list arguments;

	fprintf(stderr, "%s:%d: ", file, line);
	if (check_row != NULL)
		fprintf(stderr, "%s: ", check_row);
	va_start(arguments, format);
	vfprintf(stderr, format, arguments);
	va_end(arguments);
	fputc('\n', stderr);
	check_failures++;
}

#define CHECK(expression)                                                                 \
	do {                                                                              \
		if (!(expression))                                                        \
			check_failed(__FILE__, __LINE__, "check failed: %s", #expression); \
	} while (0)

#define CHECK_U64(actual, expected)                                                       \
	do {                                                                              \
		uint64_t check_actual_ = (actual), check_expected_ = (expected);          \
		if (check_actual_ != check_expected_)                                     \
			check_failed(__FILE__, __LINE__, "%s is %" PRIu64 ", expected %" PRIu64, \
				     #actual, check_actual_, check_expected_);            \
	} while (0)

#define CHECK_STR(actual, expected)                                                       \
	do {                                                                              \
		const char *check_actual_ = (actual), *check_expected_ = (expected);      \
		if (check_actual_ == NULL || strcmp(check_actual_, check_expected_) != 0) { \
			check_failed(__FILE__, __LINE__, "%s is \"%s\", expected \"%s\"",  \
				     #actual, check_actual_ ? check_actual_ : "(null)",   \
				     check_expected_);                                    \
		}                                                                         \
	} while (0)

/* Checks that format(text, size, value), one of gate's formatters into a buffer, writes expected. */
#define CHECK_FORMAT(format, value, expected)                                             \
	do {                                                                              \
		char check_text_[64] = "";                                                \
		format(check_text_, sizeof(check_text_), value);                          \
		if (strcmp(check_text_, expected) != 0)                                   \
			check_failed(__FILE__, __LINE__, "%s(%s) is \"%s\", expected \"%s\"", \
				     #format, #value, check_text_, expected);             \
	} while (0)

/* Checks that haystack contains needle (for error messages). */
#define CHECK_CONTAINS(haystack, needle)                                                  \
	do {                                                                              \
		const char *check_haystack_ = (haystack);                                 \
		if (check_haystack_ == NULL || strstr(check_haystack_, (needle)) == NULL) { \
			check_failed(__FILE__, __LINE__, "\"%s\" does not contain \"%s\"", \
				     check_haystack_ ? check_haystack_ : "(null)", (needle)); \
		}                                                                         \
	} while (0)

/* Checks that `predicate` accepts each word of `accepted` and refuses each of `refused` (lists
 * that end with NULL), naming every word it takes the wrong way. */
#define CHECK_ACCEPTS(predicate, accepted, refused)                                       \
	check_accepts(__FILE__, __LINE__, #predicate, predicate, accepted, refused)

static inline void check_accepts(const char *file, int line, const char *name,
				 bool (*predicate)(const char *), const char *const *accepted,
				 const char *const *refused)
{
	for (; *accepted != NULL; accepted++)
		if (!predicate(*accepted))
			check_failed(file, line, "%s refuses \"%s\"", name, *accepted);
	for (; *refused != NULL; refused++)
		if (predicate(*refused))
			check_failed(file, line, "%s accepts \"%s\"", name, *refused);
}

/* The cases that could not run here (check_skip): the executable then exits 77, ctest's
 * SKIP_RETURN_CODE, unless a check failed. */
static int check_skips;
static bool check_skipped_now; /* the case or row being run said it is skipped */

/* Says that the case named `name` cannot run here and why; it is no pass. */
__attribute__((format(printf, 2, 3)))
static inline void check_skip(const char *name, const char *format, ...)
{
	va_list arguments;

	printf("skip %s: ", name);
	va_start(arguments, format);
	vprintf(format, arguments);
	va_end(arguments);
	putchar('\n');
	check_skips++;
	check_skipped_now = true;
}

/* The line a case or row ends with: "ok   NAME" when nothing failed since `before` failures, none
 * when it was skipped (its "skip" line stands). */
static inline void check_report(int before, const char *name, size_t length)
{
	if (check_failures == before && check_skipped_now) {
		check_skipped_now = false;
		return;
	}
	check_skipped_now = false;
	printf("%s %.*s\n", check_failures == before ? "ok  " : "FAIL", (int)length, name);
}

#define RUN(test_case)                                                                    \
	do {                                                                              \
		int check_before_ = check_failures;                                       \
		test_case();                                                              \
		check_report(check_before_, #test_case, strlen(#test_case));              \
	} while (0)

#define CHECK_EXIT() (check_failures != 0 ? 1 : check_skips != 0 ? 77 : 0)

typedef void check_case(void);

/* Runs `count` cases in order, `names` being their list as the preprocessor spelled it ("a, b"),
 * with standard output unbuffered so that the case lines stay when a sanitizer aborts. Returns
 * the exit status: 1 when any check failed, 77 when none did and a case was skipped. */
static inline int check_run_cases(check_case *const *cases, size_t count, const char *names)
{
	size_t i, length;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (i = 0; i < count; i++) {
		int before = check_failures;

		names += strspn(names, ", ");
		length = strcspn(names, ", ");
		cases[i]();
		check_report(before, names, length);
		names += length;
	}
	return CHECK_EXIT();
}

/* RUN_CASES(a, b, c): runs the cases a, b and c in order and gives main's exit status. */
#define RUN_CASES(...)                                                                    \
	check_run_cases((check_case *const[]){ __VA_ARGS__ },                             \
			sizeof((check_case *const[]){ __VA_ARGS__ }) / sizeof(check_case *), \
			#__VA_ARGS__)

/* Runs check_one(&row) on each row of the array `table`, a line "ok   NAME" or "FAIL NAME" for
 * each, every failure in between named after the row. */
#define RUN_ROWS(check_one, table)                                                        \
	for (size_t check_index_ = 0; check_index_ < sizeof(table) / sizeof((table)[0]);  \
	     check_index_++) {                                                            \
		int check_before_ = check_failures;                                       \
                                                                                          \
		check_row = (table)[check_index_].name;                                   \
		check_one(&(table)[check_index_]);                                        \
		check_report(check_before_, check_row, strlen(check_row));                \
		check_row = NULL;                                                         \
	}

/* Text printed to memory: print_to() opens a stream that writes into it, printed_text() closes
 * the stream and gives the text (owned). */
struct printed {
	char *text;
	size_t size;
	FILE *out;
};

static inline FILE *print_to(struct printed *printed)
{
	printed->text = NULL;
	printed->size = 0;
	printed->out = open_memstream(&printed->text, &printed->size);
	if (printed->out == NULL)
		abort();
	return printed->out;
}

static inline char *printed_text(struct printed *printed)
{
	fclose(printed->out);
	return printed->text;
}

/* How often needle occurs in haystack (0 for NULL), overlapping occurrences included. */
static inline size_t check_count(const char *haystack, const char *needle)
{
	size_t found = 0;

	for (; haystack != NULL && (haystack = strstr(haystack, needle)) != NULL; haystack++)
		found++;
	return found;
}

#endif
