/* A minimal test runner for the unit tests: cases are functions named as sentences, each check
 * that fails prints the file, line and expression, and the executable exits 1 when any failed. */
#ifndef COSTGATE_CHECK_H
#define COSTGATE_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(expression)                                                                 \
	do {                                                                              \
		if (!(expression)) {                                                      \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,  \
				#expression);                                             \
			check_failures++;                                                 \
		}                                                                         \
	} while (0)

#define CHECK_U64(actual, expected)                                                       \
	do {                                                                              \
		uint64_t check_actual_ = (actual), check_expected_ = (expected);          \
		if (check_actual_ != check_expected_) {                                   \
			fprintf(stderr, "%s:%d: %s is %" PRIu64 ", expected %" PRIu64 "\n", \
				__FILE__, __LINE__, #actual, check_actual_, check_expected_); \
			check_failures++;                                                 \
		}                                                                         \
	} while (0)

#define CHECK_STR(actual, expected)                                                       \
	do {                                                                              \
		const char *check_actual_ = (actual), *check_expected_ = (expected);      \
		if (check_actual_ == NULL || strcmp(check_actual_, check_expected_) != 0) { \
			fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, \
				__LINE__, #actual, check_actual_ ? check_actual_ : "(null)", \
				check_expected_);                                         \
			check_failures++;                                                 \
		}                                                                         \
	} while (0)

/* Checks that haystack contains needle (for error messages). */
#define CHECK_CONTAINS(haystack, needle)                                                  \
	do {                                                                              \
		const char *check_haystack_ = (haystack);                                 \
		if (check_haystack_ == NULL || strstr(check_haystack_, (needle)) == NULL) { \
			fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, \
				__LINE__, check_haystack_ ? check_haystack_ : "(null)", (needle)); \
			check_failures++;                                                 \
		}                                                                         \
	} while (0)

#define RUN(test_case)                                                                    \
	do {                                                                              \
		int check_before_ = check_failures;                                       \
		test_case();                                                              \
		printf("%s %s\n", check_failures == check_before_ ? "ok  " : "FAIL", #test_case); \
	} while (0)

#define CHECK_EXIT() (check_failures == 0 ? 0 : 1)

/* How often needle occurs in haystack (0 for NULL), overlapping occurrences included. */
static inline size_t check_count(const char *haystack, const char *needle)
{
	size_t found = 0;

	for (; haystack != NULL && (haystack = strstr(haystack, needle)) != NULL; haystack++)
		found++;
	return found;
}

#endif
