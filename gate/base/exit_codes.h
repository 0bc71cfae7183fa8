/* gate's exit codes: the API CI and people script against (docs/design.md, exit codes; the
 * README's table). Every command exits with one of these. */
#ifndef GATE_EXIT_CODES_H
#define GATE_EXIT_CODES_H

enum gate_exit {
	GATE_EXIT_PASS = 0,        /* every gated scenario within its limits (or: done) */
	GATE_EXIT_REGRESSION = 1,  /* an instruction limit or an allocation floor exceeded */
	GATE_EXIT_USAGE = 2,       /* usage, configuration or input error */
	GATE_EXIT_MEASUREMENT = 3, /* a measurement failed or its output cannot be trusted */
	GATE_EXIT_NO_BASELINE = 4, /* no comparable baseline */
};

#endif
