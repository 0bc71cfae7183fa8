/* History charts. Deliberate: the x axis is the versions read, one step each, not the calendar,
 * so a busy week and a quiet month take the same room and every toolchain mark lines up across
 * the charts of one page; the line is a step because a figure holds until the commit that
 * changes it. */
#define _GNU_SOURCE
#include "chart.h"

#include <math.h>
#include <string.h>

#define LEFT 78     /* the plot starts here (room for the value labels) */
#define RIGHT 16
#define TOP 50     /* below the title and, under it, the drift */
#define BOTTOM 34
#define INK "#1d2430"
#define MUTED "#5b6472"
#define LINE "#d5d9e0"
#define SERIES "#2563c9"
#define ACCEPTED "#b45309"
#define TOOLCHAIN "#7c3aed"
#define TEXT_ATTRIBUTES "font-family=\"system-ui, sans-serif\" font-size=\"11\""

void chart_escape(FILE *out, const char *text)
{
	for (; text != NULL && *text != '\0'; text++) {
		unsigned char c = (unsigned char)*text;

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&#39;", out);
		else if (c < 0x20 || c == 0x7f)
			fputs("&#65533;", out);
		else
			fputc(c, out);
	}
}

void chart_format_value(char *text, size_t size, double value)
{
	char *point, *end;

	snprintf(text, size, "%.3f", value);
	point = strchr(text, '.');
	if (point == NULL)
		return;
	end = text + strlen(text) - 1;
	while (end > point && *end == '0')
		*end-- = '\0';
	if (end == point)
		*end = '\0';
}

void chart_format_percent(char *text, size_t size, double value)
{
	if (value == 0)
		snprintf(text, size, "0.00 %%");
	else
		snprintf(text, size, "%s%.2f %%", value > 0 ? "+" : "-", fabs(value));
}

struct frame {
	double low, high;    /* the value range drawn */
	size_t versions;
};

static double x_of(const struct frame *frame, size_t version)
{
	double width = CHART_HISTORY_WIDTH - LEFT - RIGHT;

	if (frame->versions < 2)
		return LEFT + width / 2;
	return LEFT + width * (double)version / (double)(frame->versions - 1);
}

static double y_of(const struct frame *frame, double value)
{
	double height = CHART_HISTORY_HEIGHT - TOP - BOTTOM;

	return TOP + height * (frame->high - value) / (frame->high - frame->low);
}

static struct frame frame_of(const struct history *history, const struct history_series *series)
{
	struct frame frame = { series->points[0].value, series->points[0].value, history->version_count };
	double padding;
	size_t i;

	for (i = 1; i < series->point_count; i++) {
		frame.low = fmin(frame.low, series->points[i].value);
		frame.high = fmax(frame.high, series->points[i].value);
	}
	padding = (frame.high - frame.low) * 0.1;
	if (padding == 0)
		padding = fmax(fabs(frame.high) * 0.02, 1);
	frame.high += padding;
	frame.low = frame.low - padding < 0 && frame.low >= 0 ? 0 : frame.low - padding;
	return frame;
}

static void text_at(FILE *out, double x, double y, const char *anchor, const char *colour,
		    const char *class_name)
{
	fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\" "
		TEXT_ATTRIBUTES ">", class_name, x, y, anchor, colour);
}

static void draw_frame(FILE *out, const struct history *history, const struct history_series *series,
		       const struct frame *frame)
{
	char text[64];
	int tick;

	text_at(out, 8, 18, "start", INK, "history-title");
	chart_escape(out, series->scenario);
	fputs(" &#183; ", out);
	chart_escape(out, series->label);
	fputs("</text>\n", out);
	chart_format_percent(text, sizeof(text), series->drift_percent);
	text_at(out, 8, 33, "start", MUTED, "history-drift");
	fprintf(out, "drift %s</text>\n", text);
	for (tick = 0; tick <= 2; tick++) {
		double value = frame->low + (frame->high - frame->low) * tick / 2.0;
		double y = y_of(frame, value);

		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", LEFT,
			CHART_HISTORY_WIDTH - RIGHT, y, y, LINE);
		chart_format_value(text, sizeof(text), value);
		text_at(out, LEFT - 6, y + 4, "end", MUTED, "history-axis");
		fprintf(out, "%s</text>\n", text);
	}
	text_at(out, x_of(frame, 0), CHART_HISTORY_HEIGHT - 12, frame->versions < 2 ? "middle" : "start",
		MUTED, "history-axis");
	chart_escape(out, history->versions[0].commit.date);
	fputs("</text>\n", out);
	if (frame->versions > 1) {
		text_at(out, x_of(frame, frame->versions - 1), CHART_HISTORY_HEIGHT - 12, "end", MUTED,
			"history-axis");
		chart_escape(out, history->versions[frame->versions - 1].commit.date);
		fputs("</text>\n", out);
	}
}

static void draw_toolchain_marks(FILE *out, const struct history *history, const struct frame *frame)
{
	size_t i;

	for (i = 1; i < history->version_count; i++) {
		const struct history_version *version = &history->versions[i];
		double x = x_of(frame, i);

		if (version->fingerprint_change == NULL)
			continue;
		fprintf(out, "<line class=\"fingerprint-change\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
			"y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"><title>"
			"toolchain changed at ", x, x, TOP - 6, CHART_HISTORY_HEIGHT - BOTTOM + 4, TOOLCHAIN);
		chart_escape(out, version->commit.short_hash);
		fputs(" (", out);
		chart_escape(out, version->commit.date);
		fputs("): ", out);
		chart_escape(out, version->fingerprint_change);
		fputs("</title></line>\n", out);
	}
}

static void draw_line(FILE *out, const struct history_series *series, const struct frame *frame)
{
	size_t i;

	fprintf(out, "<path class=\"history-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
		"d=\"M%.1f %.1f", SERIES, x_of(frame, series->points[0].version),
		y_of(frame, series->points[0].value));
	for (i = 1; i < series->point_count; i++)
		fprintf(out, " H%.1f V%.1f", x_of(frame, series->points[i].version),
			y_of(frame, series->points[i].value));
	fprintf(out, " H%.1f\"/>\n", x_of(frame, frame->versions - 1));
}

static void draw_point(FILE *out, const struct history *history, const struct history_point *point,
		       const struct frame *frame)
{
	const struct history_version *version = &history->versions[point->version];
	char value[64], change[64];

	chart_format_value(value, sizeof(value), point->value);
	fprintf(out, "<circle class=\"history-point%s\" data-value=\"%s\" data-commit=\"",
		point->accepted != NULL ? " accepted" : "", value);
	chart_escape(out, version->commit.short_hash);
	fprintf(out, "\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"#fff\" "
		"stroke-width=\"1.5\"><title>", x_of(frame, point->version), y_of(frame, point->value),
		point->accepted != NULL ? ACCEPTED : SERIES);
	chart_escape(out, version->commit.short_hash);
	fputs(" ", out);
	chart_escape(out, version->commit.date);
	fputs(" ", out);
	chart_escape(out, version->commit.subject);
	fprintf(out, ": %s", value);
	if (point->has_change) {
		chart_format_percent(change, sizeof(change), point->change_percent);
		fprintf(out, " (%s)", change);
	}
	if (point->accepted != NULL) {
		fputs("; accepted: ", out);
		chart_escape(out, point->accepted);
	}
	if (version->fingerprint_change != NULL) {
		fputs("; toolchain changed: ", out);
		chart_escape(out, version->fingerprint_change);
	}
	fputs("</title></circle>\n", out);
}

void chart_history(FILE *out, const struct history *history, const struct history_series *series,
		   bool standalone)
{
	struct frame frame = frame_of(history, series);
	size_t i;

	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg class=\"history-chart\" data-scenario=\"");
	chart_escape(out, series->scenario);
	fprintf(out, "\" data-metric=\"%s\"%s viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"role=\"img\" aria-label=\"", series->key,
		standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", CHART_HISTORY_WIDTH,
		CHART_HISTORY_HEIGHT, CHART_HISTORY_WIDTH, CHART_HISTORY_HEIGHT);
	chart_escape(out, series->scenario);
	fputs(": ", out);
	chart_escape(out, series->label);
	fputs(" over the history of the baseline\">\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", CHART_HISTORY_WIDTH,
		CHART_HISTORY_HEIGHT);
	draw_frame(out, history, series, &frame);
	draw_toolchain_marks(out, history, &frame);
	draw_line(out, series, &frame);
	for (i = 0; i < series->point_count; i++)
		draw_point(out, history, &series->points[i], &frame);
	fputs("</svg>\n", out);
}
