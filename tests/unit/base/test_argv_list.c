/* Unit tests of argument vectors built one argument at a time: terminated after every add,
 * grown past any first size, formatted arguments, and a failure remembered until the end. */
#include "argv_list.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

/* Every prefix of a list is a whole vector: the NULL follows the last argument added. */
static void argv_list_should_stay_terminated_as_it_grows(void)
{
	struct argv_list list = ARGV_LIST_INIT;
	char *const *vector;
	size_t i;

	CHECK(argv_list_vector(&list) == NULL); /* nothing to run */
	for (i = 0; i < 100; i++) {
		argv_list_addf(&list, "argument-%zu", i);
		vector = argv_list_vector(&list);
		CHECK(vector != NULL && vector[i + 1] == NULL);
	}
	vector = argv_list_vector(&list);
	CHECK_U64(list.count, 100);
	CHECK(list.capacity >= 100);
	CHECK_STR(vector[0], "argument-0");
	CHECK_STR(vector[99], "argument-99");
	argv_list_release(&list);
	CHECK(list.items == NULL && list.count == 0 && list.capacity == 0 && !list.failed);
}

/* The strings are the list's own: the caller's buffer may change after the add. */
static void argv_list_should_copy_what_it_is_given(void)
{
	const char *const words[] = { "cmake", "-S", "/src", "-B", "/build", NULL };
	struct argv_list list = ARGV_LIST_INIT;
	char buffer[16];
	char *const *vector;

	snprintf(buffer, sizeof(buffer), "%s", "-j");
	argv_list_add_all(&list, words);
	argv_list_add(&list, buffer);
	argv_list_addf(&list, "%u", 2u);
	buffer[0] = 'x';
	vector = argv_list_vector(&list);
	CHECK(vector != NULL);
	if (vector == NULL)
		return;
	CHECK_STR(vector[0], "cmake");
	CHECK_STR(vector[4], "/build");
	CHECK_STR(vector[5], "-j");
	CHECK_STR(vector[6], "2");
	CHECK(vector[7] == NULL);
	CHECK(vector[0] != words[0]);
	argv_list_release(&list);
	argv_list_release(NULL);
}

/* A failed add (here a NULL argument, as out of memory would be) leaves no vector to run, even
 * after later adds succeed: a command missing an argument must never start. */
static void argv_list_should_refuse_a_vector_after_a_failed_add(void)
{
	struct argv_list list = ARGV_LIST_INIT;

	argv_list_add(&list, "git");
	argv_list_add(&list, NULL);
	argv_list_add(&list, "status");
	CHECK(list.failed);
	CHECK(argv_list_vector(&list) == NULL);
	argv_list_release(&list);
	CHECK(!list.failed);
}

int main(void)
{
	return RUN_CASES(argv_list_should_stay_terminated_as_it_grows,
			 argv_list_should_copy_what_it_is_given,
			 argv_list_should_refuse_a_vector_after_a_failed_add);
}
