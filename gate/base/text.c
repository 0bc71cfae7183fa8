/* Checking and escaping untrusted text. UTF-8 is decoded by hand (no locale): what counts as a
 * control character must not depend on the environment gate runs in. */
#define _GNU_SOURCE
#include "text.h"

#include <stdint.h>
#include <string.h>

bool text_is_name(const char *text)
{
	size_t length = strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return length >= 1 && length <= TEXT_NAME_MAX && text[length] == '\0';
}

bool text_is_identifier(const char *text)
{
	size_t length = strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	return length >= 1 && length <= 128 && text[length] == '\0' && (text[0] < '0' || text[0] > '9');
}

/* The code point at `text` and its length in bytes; length 0 when the bytes are not UTF-8
 * (overlong forms, surrogates and values above U+10FFFF included). */
static size_t decode(const unsigned char *text, uint32_t *point)
{
	size_t length, i;
	uint32_t value;

	if (text[0] < 0x80) {
		*point = text[0];
		return 1;
	}
	if (text[0] >= 0xc2 && text[0] <= 0xdf) {
		length = 2;
		value = text[0] & 0x1fu;
	} else if (text[0] >= 0xe0 && text[0] <= 0xef) {
		length = 3;
		value = text[0] & 0x0fu;
	} else if (text[0] >= 0xf0 && text[0] <= 0xf4) {
		length = 4;
		value = text[0] & 0x07u;
	} else {
		return 0;
	}
	for (i = 1; i < length; i++) {
		if ((text[i] & 0xc0) != 0x80)
			return 0;
		value = value << 6 | (text[i] & 0x3fu);
	}
	if ((length == 3 && value < 0x800) || (length == 4 && value < 0x10000) || value > 0x10ffff ||
	    (value >= 0xd800 && value <= 0xdfff))
		return 0;
	*point = value;
	return length;
}

/* C0, DEL and C1 controls. */
static bool is_control(uint32_t point)
{
	return point < 0x20 || (point >= 0x7f && point <= 0x9f);
}

/* What makes text read differently from its bytes: line and paragraph separators, and the
 * bidirectional embeddings, overrides and isolates. */
static bool is_deceptive(uint32_t point)
{
	return point == 0x2028 || point == 0x2029 || (point >= 0x202a && point <= 0x202e) ||
	       (point >= 0x2066 && point <= 0x2069) || point == 0x200e || point == 0x200f;
}

const char *text_line_problem(const char *text, size_t max_characters)
{
	const unsigned char *at = (const unsigned char *)text;
	size_t characters = 0, length;
	uint32_t point;

	for (; *at != '\0'; at += length, characters++) {
		length = decode(at, &point);
		if (length == 0)
			return "is not UTF-8";
		if (point == '\n' || point == '\r')
			return "is more than one line";
		if (is_control(point))
			return "holds a control character";
		if (is_deceptive(point))
			return "holds a line separator or a bidirectional control";
	}
	if (characters > max_characters)
		return "is too long";
	return NULL;
}

const char *text_quote(char *out, size_t size, const char *text)
{
	size_t used = 0, i;

	out[0] = '\0';
	for (i = 0; text[i] != '\0' && i < 64 && used + 5 < size; i++) {
		unsigned char byte = (unsigned char)text[i];

		if (byte >= 0x20 && byte < 0x7f && byte != '\\')
			out[used++] = (char)byte;
		else
			used += (size_t)snprintf(out + used, size - used, "\\x%02x", byte);
	}
	if (text[i] != '\0' && used + 4 < size) {
		memcpy(out + used, "...", 3);
		used += 3;
	}
	out[used] = '\0';
	return out;
}

/* Calls `put` for each code point of `text` that is not a control character, with its bytes;
 * a byte that is not UTF-8 comes as "?". */
static void each_printable(FILE *out, const char *text,
			   void (*put)(FILE *, const char *, size_t, const char *, const char *))
{
	const unsigned char *at = (const unsigned char *)text;
	uint32_t point;
	size_t length;

	for (; *at != '\0'; at += length) {
		length = decode(at, &point);
		if (length == 0) {
			put(out, "?", 1, text, (const char *)at);
			length = 1;
		} else if (point == '\n' || point == '\r' || point == '\t') {
			put(out, " ", 1, text, (const char *)at);
		} else if (!is_control(point) && !is_deceptive(point)) {
			put(out, (const char *)at, length, text, (const char *)at);
		}
	}
}

static void put_plain(FILE *out, const char *bytes, size_t length, const char *start,
		      const char *at)
{
	(void)start;
	(void)at;
	fwrite(bytes, 1, length, out);
}

void text_terminal(FILE *out, const char *text)
{
	each_printable(out, text, put_plain);
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void put_markdown(FILE *out, const char *bytes, size_t length, const char *start,
			 const char *at)
{
	if (length != 1) {
		fwrite(bytes, 1, length, out);
		return;
	}
	switch (bytes[0]) {
	case '<': fputs("&lt;", out); return;
	case '>': fputs("&gt;", out); return;
	case '&': fputs("&amp;", out); return;
	case '_':
		/* Inside a word an underscore is no emphasis (GitHub's rule), so "consume_json" stays. */
		if (at > start && is_word(at[-1]) && is_word(at[1])) {
			fputc('_', out);
			return;
		}
		break;
	case '\\': case '`': case '*': case '[': case ']': case '|': case '#': case '~': case '!':
	case '@': case '$':
		break;
	default:
		fputc(bytes[0], out);
		return;
	}
	fputc('\\', out);
	fputc(bytes[0], out);
}

void text_markdown(FILE *out, const char *text)
{
	each_printable(out, text, put_markdown);
}

static void put_markdown_code(FILE *out, const char *bytes, size_t length, const char *start,
			      const char *at)
{
	(void)start;
	(void)at;
	if (length == 1 && bytes[0] == '`')
		fputc('\'', out);
	else if (length == 1 && bytes[0] == '|')
		fputs("\\|", out);
	else
		fwrite(bytes, 1, length, out);
}

void text_markdown_code(FILE *out, const char *text)
{
	each_printable(out, text, put_markdown_code);
}

void text_workflow(FILE *out, const char *text, bool property)
{
	for (; *text != '\0'; text++) {
		unsigned char byte = (unsigned char)*text;

		if (byte == '%')
			fputs("%25", out);
		else if (byte == '\r')
			fputs("%0D", out);
		else if (byte == '\n')
			fputs("%0A", out);
		else if (property && byte == ':')
			fputs("%3A", out);
		else if (property && byte == ',')
			fputs("%2C", out);
		else if (byte >= 0x20 && byte != 0x7f)
			fputc(byte, out);
	}
}
