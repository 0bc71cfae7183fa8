/* Unit tests of the charts (chart.h): what a history chart draws for a document, and how figures
 * and percentages are written. */
#define _GNU_SOURCE
#include "chart.h"
#include "check.h"
#include "history_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *draw(const struct history *history, size_t index, bool standalone)
{
	struct printed printed;

	chart_history(print_to(&printed), history, &history->series[index], standalone);
	return printed_text(&printed);
}

static void chart_should_draw_a_dot_per_change_and_a_mark_per_toolchain_change(void)
{
	struct history history = HISTORY_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	char *svg;

	CHECK(history_sample_read(&history, history_sample, &err) == 0);
	svg = draw(&history, 0, false);
	CHECK_U64(check_count(svg, "<circle class=\"history-point"), 3);
	CHECK_U64(check_count(svg, "<circle class=\"history-point accepted\""), 1);
	CHECK_U64(check_count(svg, "<line class=\"fingerprint-change\""), 1);
	CHECK_U64(check_count(svg, "<path class=\"history-line\""), 1);
	CHECK_CONTAINS(svg, "<title>c1 2024-01-01 Add &lt;it&gt;: 1000</title>");
	CHECK_CONTAINS(svg, "<title>c2 2024-01-02 gcc 13: 1100 (+10.00 %); accepted: a reason; "
			    "toolchain changed: compiler: GNU 12 -&gt; GNU 13</title>");
	CHECK_CONTAINS(svg, ">drift +21.00 %</text>");
	CHECK(strstr(svg, "xmlns") == NULL && strstr(svg, "<?xml") == NULL);
	CHECK(strstr(svg, "<script") == NULL && strstr(svg, "href") == NULL);
	free(svg);
	svg = draw(&history, 0, true);
	CHECK(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg", 43) == 0);
	CHECK_CONTAINS(svg, "xmlns=\"http://www.w3.org/2000/svg\"");
	free(svg);
	history_release(&history);
}

static void chart_should_draw_higher_figures_higher(void)
{
	struct history history = HISTORY_INIT;
	struct gate_error err = GATE_ERROR_INIT;
	double cy[3] = { 0, 0, 0 };
	const char *at;
	char *svg;
	size_t i;

	CHECK(history_sample_read(&history, history_sample, &err) == 0);
	svg = draw(&history, 0, false);
	at = svg;
	for (i = 0; i < 3 && (at = strstr(at, "<circle")) != NULL; i++, at++)
		CHECK(sscanf(strstr(at, " cy=\"") + 5, "%lf", &cy[i]) == 1);
	CHECK(cy[0] > cy[1] && cy[1] > cy[2]);
	free(svg);
	history_release(&history);
}

static void chart_should_format_figures_and_percentages(void)
{
	CHECK_FORMAT(chart_format_value, 17412.48, "17412.48");
	CHECK_FORMAT(chart_format_value, 17312, "17312");
	CHECK_FORMAT(chart_format_value, 27040.155, "27040.155");
	CHECK_FORMAT(chart_format_percent, 1.9, "+1.90 %");
	CHECK_FORMAT(chart_format_percent, -3.8831, "-3.88 %");
	CHECK_FORMAT(chart_format_percent, 0, "0.00 %");
}

int main(void)
{
	return RUN_CASES(chart_should_draw_a_dot_per_change_and_a_mark_per_toolchain_change,
			 chart_should_draw_higher_figures_higher,
			 chart_should_format_figures_and_percentages);
}
