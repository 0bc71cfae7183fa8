/* What code below cmd/ says as it goes (progress, the commands it runs, how the build is sealed):
 * one line at a time, through a function cmd/ gives it. Code below cmd/ never prints. */
#ifndef GATE_SAY_H
#define GATE_SAY_H

struct say {
	void (*line)(void *context, const char *text); /* one line, without its newline */
	void *context;
};

/* Formats one line and hands it to say->line; nothing when say or its line is NULL. */
void say_line(const struct say *say, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
