/* Untrusted text: what a pull request brings (scenario names, titles, acceptance reasons,
 * function names of the program) is checked where it is read and escaped where it is printed,
 * once per output: the terminal, Markdown, workflow commands, HTML (page.c). */
#ifndef GATE_TEXT_H
#define GATE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest scenario name, and the longest acceptance reason or title in characters. */
#define TEXT_NAME_MAX 64
#define TEXT_LINE_MAX 200

/* A scenario name: [a-z0-9_]{1,64}. */
bool text_is_name(const char *text);

/* A C identifier that is no pattern: [A-Za-z_][A-Za-z0-9_]{0,127} (valgrind's --toggle-collect
 * would read '*' and '?' as wildcards). */
bool text_is_identifier(const char *text);

/* One printable line of valid UTF-8, at most `max_characters` characters: no control characters
 * (C0, DEL, C1), no line or paragraph separators, no bidirectional overrides. Returns NULL, or
 * what is wrong ("holds a control character", "is longer than 200 characters", ...). */
const char *text_line_problem(const char *text, size_t max_characters);

/* `text` for an error message: at most 64 bytes, every byte outside printable ASCII as \xNN.
 * Writes into `out` (size > 0) and returns it. */
const char *text_quote(char *out, size_t size, const char *text);

/* The terminal: `text` on one line (CR, LF and tab as a space) without control characters (the
 * rest of C0, DEL, C1) or bidirectional controls, and bytes that are not UTF-8 as '?'. The same
 * holds for the two Markdown writers. */
void text_terminal(FILE *out, const char *text);

/* Markdown prose or a table cell: the characters Markdown or GitHub's HTML give meaning to are
 * escaped ('<' as &lt;, so "<!--" cannot hide what follows; '*', '[', '|', '`', ...), an
 * underscore only where it could start or end emphasis, control characters dropped. */
void text_markdown(FILE *out, const char *text);

/* Inside a Markdown code span in a table: HTML is not read there, so only '`' (which would end
 * the span, written as '\'') and '|' (which would end the cell) matter; controls dropped. */
void text_markdown_code(FILE *out, const char *text);

/* A workflow command's data (property false) or property value (true): %, CR and LF as %25,
 * %0D and %0A, and in properties ':' and ',' as %3A and %2C; other controls dropped. */
void text_workflow(FILE *out, const char *text, bool property);

#endif
