/* Errors and what below cmd/ says: a message set, context put in front on the way up, running
 * out of memory told apart by its kind and never by its text, and a line handed to cmd/. */
#include <string.h>

#include "check.h"
#include "error.h"
#include "say.h"

static void error_should_keep_its_kind_under_context(void)
{
	struct gate_error err = GATE_ERROR_INIT;

	CHECK(!gate_error_is_oom(&err));
	CHECK(gate_error_oom(&err) == -1);
	CHECK_STR(err.message, "out of memory");
	CHECK(gate_error_is_oom(&err));
	CHECK(gate_error_prefix(&err, "cannot parse '%s': line %d", "a.out", 3) == -1);
	CHECK_STR(err.message, "cannot parse 'a.out': line 3: out of memory");
	CHECK(gate_error_is_oom(&err));
	/* The same words set as any other error are not the kind. */
	CHECK(gate_error_set(&err, "out of memory") == -1);
	CHECK(!gate_error_is_oom(&err));
	CHECK(gate_error_oom(NULL) == -1 && !gate_error_is_oom(NULL));
}

static void said(void *context, const char *text)
{
	char *last = context;

	strncpy(last, text, 63);
	last[63] = '\0';
}

static void say_should_hand_one_line_to_cmd(void)
{
	char last[64] = "";
	struct say say = { said, last };
	struct say silent = { NULL, NULL };

	say_line(&say, "gate: %s %d", "reply", 400);
	CHECK_STR(last, "gate: reply 400");
	say_line(&silent, "never");
	say_line(NULL, "never");
	CHECK_STR(last, "gate: reply 400");
}

int main(void)
{
	return RUN_CASES(error_should_keep_its_kind_under_context, say_should_hand_one_line_to_cmd);
}
