/* Unit tests of the cross-check's reading of the native counter's output. */
#include "check.h"
#include "crosscheck.h"

static void parse_should_read_the_allocations_line(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	uint64_t blocks = 0;

	CHECK(crosscheck_parse("allocations 38000\n", &blocks, &err) == 0);
	CHECK_U64(blocks, 38000);
	CHECK(crosscheck_parse("allocations 0", &blocks, &err) == 0);
	CHECK_U64(blocks, 0);
}

static void parse_should_reject_anything_else(void)
{
	struct gate_error err = GATE_ERROR_INIT;
	uint64_t blocks = 7;

	CHECK(crosscheck_parse("", &blocks, &err) != 0);
	CHECK_CONTAINS(err.message, "no 'allocations' line");
	CHECK(crosscheck_parse("allocations -1\n", &blocks, &err) != 0);
	CHECK(crosscheck_parse("allocations 12x\n", &blocks, &err) != 0);
	CHECK(crosscheck_parse("allocations 12\nmore\n", &blocks, &err) != 0);
	CHECK(crosscheck_parse("allocations 99999999999999999999999\n", &blocks, &err) != 0);
	CHECK_CONTAINS(err.message, "not 'allocations BLOCKS'");
	CHECK_U64(blocks, 7);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	RUN(parse_should_read_the_allocations_line);
	RUN(parse_should_reject_anything_else);
	return CHECK_EXIT();
}
