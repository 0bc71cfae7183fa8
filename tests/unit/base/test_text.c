/* Unit tests of untrusted text: what a name may be, what a reason or title may hold, and how
 * each output escapes what reaches it (a forged workflow command, an HTML comment that would hide
 * the rest of a summary, terminal escapes). */
#define _GNU_SOURCE
#include "check.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>

typedef void (*writer)(FILE *, const char *);

/* What `write` makes of `text`, owned by a static buffer. */
static const char *written(writer write, const char *text)
{
	static char result[1024];
	struct printed printed;
	char *buffer;

	write(print_to(&printed), text);
	buffer = printed_text(&printed);
	snprintf(result, sizeof(result), "%s", buffer);
	free(buffer);
	return result;
}

static void workflow_data(FILE *out, const char *text) { text_workflow(out, text, false); }
static void workflow_property(FILE *out, const char *text) { text_workflow(out, text, true); }

static void text_should_accept_only_short_lowercase_names(void)
{
	char longest[70], too_long[70];
	const char *const names[] = { "consume_json", "a1_", longest, NULL };
	const char *const not_names[] = { "", "Reply", "re-ply", "reply\n::notice::x", "<!--", too_long,
					  NULL };

	snprintf(longest, sizeof(longest), "%064d", 0);
	snprintf(too_long, sizeof(too_long), "%065d", 0);
	CHECK_ACCEPTS(text_is_name, names, not_names);
}

static void text_should_accept_only_identifiers_as_a_region(void)
{
	const char *const identifiers[] = { "costgate_measured_region", NULL };
	const char *const not_identifiers[] = { "costgate_*", "region?", "1region", "", NULL };

	CHECK_ACCEPTS(text_is_identifier, identifiers, not_identifiers);
}

static void text_should_accept_one_printable_line_of_at_most_the_limit(void)
{
	char line[260];

	CHECK(text_line_problem("a faster parser: one strlen per message", 200) == NULL);
	CHECK(text_line_problem("déjà vu, 3 × faster", 200) == NULL);
	CHECK_STR(text_line_problem("fine\n::stop-commands::x", 200), "is more than one line");
	CHECK_STR(text_line_problem("fine\r", 200), "is more than one line");
	CHECK_STR(text_line_problem("\x1b[31mred", 200), "holds a control character");
	CHECK_STR(text_line_problem("c1 \xc2\x9b" "31m", 200), "holds a control character");
	CHECK_STR(text_line_problem("evil \xe2\x80\xae" "txt", 200),
		  "holds a line separator or a bidirectional control");
	CHECK_STR(text_line_problem("bad \xff byte", 200), "is not UTF-8");
	CHECK_STR(text_line_problem("overlong \xc0\xaf", 200), "is not UTF-8");
	snprintf(line, sizeof(line), "%0200d", 0);
	CHECK(text_line_problem(line, 200) == NULL);
	snprintf(line, sizeof(line), "%0201d", 0);
	CHECK_STR(text_line_problem(line, 200), "is too long");
	/* Characters, not bytes: 100 two-byte characters are 100. */
	line[0] = '\0';
	for (int i = 0; i < 100; i++)
		strcat(line, "\xc3\xa9");
	CHECK(text_line_problem(line, 100) == NULL);
}

static void markdown_should_escape_what_markdown_and_html_read(void)
{
	CHECK_STR(written(text_markdown, "<!-- hides the rest"), "&lt;\\!-- hides the rest");
	CHECK_STR(written(text_markdown, "**bold** [link](x) `code` a|b"),
		  "\\*\\*bold\\*\\* \\[link\\](x) \\`code\\` a\\|b");
	CHECK_STR(written(text_markdown, "consume_json"), "consume_json");
	CHECK_STR(written(text_markdown, "_emphasis_"), "\\_emphasis\\_");
	CHECK_STR(written(text_markdown, "@someone & $x$"), "\\@someone &amp; \\$x\\$");
	CHECK_STR(written(text_markdown, "one\ntwo\x1b[0m"), "one two\\[0m");
}

static void markdown_code_should_neither_end_the_span_nor_the_cell(void)
{
	CHECK_STR(written(text_markdown_code, "f`<!--|x"), "f'<!--\\|x");
}

static void workflow_escaping_should_keep_a_command_on_its_line(void)
{
	CHECK_STR(written(workflow_data, "100% done\r\n::notice::forged"),
		  "100%25 done%0D%0A::notice::forged");
	CHECK_STR(written(workflow_property, "costgate: a,b"), "costgate%3A a%2Cb");
	CHECK_STR(written(workflow_data, "bell\a"), "bell");
}

static void terminal_should_strip_control_characters(void)
{
	CHECK_STR(written(text_terminal, "\x1b]0;title\x07red\x1b[31m"), "]0;titlered[31m");
	CHECK_STR(written(text_terminal, "two\nlines\r"), "two lines ");
	CHECK_STR(written(text_terminal, "c1\xc2\x9b" "x \xe2\x80\xae" "y"), "c1x y");
	CHECK_STR(written(text_terminal, "bad\xff"), "bad?");
	CHECK_STR(written(text_terminal, "déjà"), "déjà");
}

static void quote_should_show_bytes_outside_printable_ascii(void)
{
	char quoted[300];

	CHECK_STR(text_quote(quoted, sizeof(quoted), "a\nb\x1b"), "a\\x0ab\\x1b");
}

int main(void)
{
	return RUN_CASES(text_should_accept_only_short_lowercase_names,
			 text_should_accept_only_identifiers_as_a_region,
			 text_should_accept_one_printable_line_of_at_most_the_limit,
			 markdown_should_escape_what_markdown_and_html_read,
			 markdown_code_should_neither_end_the_span_nor_the_cell,
			 workflow_escaping_should_keep_a_command_on_its_line,
			 terminal_should_strip_control_characters,
			 quote_should_show_bytes_outside_printable_ascii);
}
