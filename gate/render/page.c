/* The results page, drawn from the structs the results module read (results_view_read: every
 * value checked, so a malformed document writes nothing). Deliberate: no
 * script at all. Numbers show on hover or focus through CSS and SVG titles, and every chart has
 * a table, so the page reads the same with scripts off, in print, and in a screen reader. */
#define _GNU_SOURCE
#include "page.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "flamegraph.h"
#include "wallclock.h"

/* Geometry of a wall-clock chart, in SVG user units. */
#define CHART_WIDTH 820
#define LABEL_RIGHT 250  /* labels end here; the plot starts */
#define PLOT_WIDTH 400
#define AXIS_HEIGHT 30
#define ROW_HEIGHT 24
#define GROUP_GAP 10
#define BAR_PIXELS 80    /* the code table's inline bars */

/* Writing. Every string from the document goes through escape(). */
static void escape(FILE *out, const char *text)
{
	for (; text != NULL && *text != '\0'; text++) {
		switch (*text) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*text, out);
		}
	}
}

/* 1312000 as "1 312 000" (narrow no-break spaces), with `decimals` digits after the point and
 * trailing zeros dropped. */
static void number(FILE *out, double value, int decimals)
{
	char text[64], *point, *digit;
	size_t whole;

	snprintf(text, sizeof(text), "%.*f", decimals, fabs(value));
	point = strchr(text, '.');
	if (point != NULL) {
		char *end = text + strlen(text) - 1;

		while (end > point && *end == '0')
			*end-- = '\0';
		if (end == point)
			*end = '\0';
	}
	whole = point != NULL && *point != '\0' ? (size_t)(point - text) : strlen(text);
	if (value < 0 && strspn(text, "0.") != strlen(text))
		fputs("&#8722;", out);
	for (digit = text; *digit != '\0'; digit++) {
		size_t position = (size_t)(digit - text);

		if (position > 0 && position < whole && (whole - position) % 3 == 0)
			fputs("&#8239;", out);
		fputc(*digit, out);
	}
}

/* +1.70 % / −0.25 % */
static void percent(FILE *out, double value)
{
	fputs(value < 0 ? "&#8722;" : "+", out);
	fprintf(out, "%.2f&#8239;%%", fabs(value));
}

/* The verdict rule's display: a percentage only when measured. */
static void verdict_text(FILE *out, bool indistinguishable, double overhead)
{
	if (indistinguishable)
		fputs("indistinguishable", out);
	else
		percent(out, overhead);
}

static const char style[] =
	":root{--ink:#1d2430;--muted:#5b6472;--line:#d5d9e0;--raw:#7a8494;--harness:#2563c9;"
	"--band:#e9eef6;--paper:#fff}\n"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,"
	"sans-serif;color:var(--ink);background:var(--paper);max-width:1180px;margin:2rem auto;"
	"padding:0 1rem}\n"
	"h1{font-size:1.6rem;margin:0 0 .3rem}h2{font-size:1.25rem;margin:2.2rem 0 .4rem;"
	"border-bottom:1px solid var(--line);padding-bottom:.2rem}\n"
	"p{margin:.4rem 0}.muted,.title{color:var(--muted)}.title{font-size:.85rem;font-weight:400}\n"
	"figure{margin:1.2rem 0}figcaption{margin-bottom:.3rem}\n"
	"svg text{font:12px system-ui,sans-serif;fill:var(--ink)}\n"
	".axis text{fill:var(--muted)}.grid{stroke:var(--line)}.zero{stroke:var(--ink);"
	"stroke-width:1.5}\n"
	".spread{fill:var(--band)}.range{stroke-width:7;stroke-linecap:round}\n"
	".raw .range{stroke:var(--raw)}.harness .range{stroke:var(--harness)}\n"
	".notch{stroke:var(--paper);stroke-width:2}\n"
	".best{stroke-width:2;stroke:var(--ink);fill:var(--ink)}.best.hollow{fill:var(--paper)}\n"
	".loop .numbers{opacity:0}.loop:hover .numbers,.loop:focus .numbers{opacity:1}\n"
	".loop:hover .hit,.loop:focus .hit{fill:#f3f5f9}.hit{fill:transparent}.loop:focus{outline:none}\n"
	".loop-verdict{fill:var(--muted)}.measured{font-weight:600}\n"
	".legend{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;font-size:.85rem;color:var(--muted);"
	"margin:.6rem 0}.legend svg{vertical-align:middle;margin-right:.3rem}\n"
	"table{border-collapse:collapse;width:100%;font-size:.9rem;margin:.6rem 0}\n"
	"th,td{text-align:left;padding:.3rem .4rem;border-bottom:1px solid var(--line);"
	"vertical-align:top}\n"
	"td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}\n"
	"td.num svg{display:block;margin:.2rem 0 0 auto}.bar rect{fill:var(--harness)}"
	".bar .track{fill:var(--band)}\n"
	"details{margin:.6rem 0}summary{cursor:pointer;color:var(--harness)}\n"
	"table.machine th{width:12rem;font-weight:500;color:var(--muted)}\n"
	"#verdict{border-left:6px solid var(--muted);background:var(--band);padding:.5rem .9rem;"
	"margin:.8rem 0;font-size:1.05rem}#verdict.verdict-pass{border-color:#1a7f37;"
	"background:#e6f4ea}#verdict.verdict-fail{border-color:#c62828;background:#fdecea}\n"
	".state span{font-weight:600}.state-failed,.state-regressed,.state-missing{color:#c62828}"
	".state-improved{color:#1a7f37}.state-accepted{color:#b35c00}\n"
	"td.failure{color:#c62828;overflow-wrap:anywhere}.wide{overflow-x:auto}"
	"th .title{font-weight:400}th.num{text-align:right}td.against{white-space:normal;min-width:15rem}\n"
	".history-charts{display:flex;flex-wrap:wrap;gap:.5rem}.history-charts svg{max-width:100%;"
	"height:auto}\n";

static void intro(FILE *out)
{
	fputs("<p class=\"muted\">What a message costs: the instructions and allocations gate holds "
	      "every change to, and wall clock against a hand-written raw loop (informational, never "
	      "gated).</p>\n", out);
}

static void head(FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<title>costgate results</title>\n<style>\n", out);
	fputs(style, out);
	fputs("</style>\n</head>\n<body>\n<h1>costgate results</h1>\n", out);
}

/* The axis of one pair: from the fastest best round to the slowest worst round, with zero and the
 * spread band inside, and ticks at 1, 2 or 5 times a power of ten. */
struct axis {
	double low, high, step;
};

static void axis_widen(struct axis *axis, double value)
{
	if (value < axis->low)
		axis->low = value;
	if (value > axis->high)
		axis->high = value;
}

static struct axis pair_axis(const struct results_wall_pair *pair)
{
	struct axis axis = { -pair->spread, pair->spread, 1 };
	double span, magnitude, padding;
	size_t i;

	axis_widen(&axis, 0);
	for (i = 0; i < pair->loop_count; i++) {
		axis_widen(&axis, wall_slowdown_percent(pair->raw.best, pair->loops[i].raw.best));
		axis_widen(&axis, wall_slowdown_percent(pair->raw.best, pair->loops[i].raw.worst));
		axis_widen(&axis, wall_slowdown_percent(pair->raw.best, pair->loops[i].framework.best));
		axis_widen(&axis, wall_slowdown_percent(pair->raw.best, pair->loops[i].framework.worst));
	}
	span = axis.high - axis.low;
	span = span < 1 ? 1 : span;
	padding = span * 0.08;
	axis.low -= padding;
	axis.high += padding;
	magnitude = pow(10, floor(log10((axis.high - axis.low) / 5)));
	axis.step = magnitude;
	if ((axis.high - axis.low) / axis.step > 7)
		axis.step = magnitude * 2;
	if ((axis.high - axis.low) / axis.step > 7)
		axis.step = magnitude * 5;
	if ((axis.high - axis.low) / axis.step > 7)
		axis.step = magnitude * 10;
	return axis;
}

static double axis_x(const struct axis *axis, double value)
{
	return LABEL_RIGHT + (value - axis->low) / (axis->high - axis->low) * PLOT_WIDTH;
}

static void draw_axis(FILE *out, const struct axis *axis, double top, double bottom,
		      const struct results_wall_pair *pair)
{
	double tick, spread_left = axis_x(axis, -pair->spread), spread_right = axis_x(axis, pair->spread);

	fprintf(out, "<rect class=\"spread\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
		"<title>spread of the rounds: &#177;%.2f %%</title></rect>\n", spread_left, top,
		spread_right - spread_left, bottom - top, pair->spread);
	fputs("<g class=\"axis\">\n", out);
	for (tick = ceil(axis->low / axis->step) * axis->step; tick <= axis->high + 1e-9;
	     tick += axis->step) {
		double x = axis_x(axis, fabs(tick) < 1e-9 ? 0 : tick);

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, x, top, bottom, x,
			top - 8);
		if (fabs(tick) < 1e-9)
			fputs("0", out);
		else {
			fputs(tick < 0 ? "&#8722;" : "+", out);
			number(out, fabs(tick), 2);
		}
		fputs("&#8201;%</text>\n", out);
	}
	fprintf(out, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n</g>\n",
		axis_x(axis, 0), axis_x(axis, 0), top - 2, bottom);
}

/* One loop of one side: a bar from best to worst, the notch at the median, the dot at the best. */
static void draw_loop(FILE *out, const struct axis *axis, const struct results_wall_pair *pair, size_t index,
		      bool harness, double y)
{
	const struct results_wall_loop *loop = &pair->loops[index];
	const struct results_wall_summary *side = harness ? &loop->framework : &loop->raw;
	const char *name = harness ? pair->name : pair->raw_name ? pair->raw_name : "raw loop";
	double best = axis_x(axis, wall_slowdown_percent(pair->raw.best, side->best));
	double median = axis_x(axis, wall_slowdown_percent(pair->raw.best, side->median));
	double worst = axis_x(axis, wall_slowdown_percent(pair->raw.best, side->worst));

	fprintf(out, "<g class=\"loop %s\" tabindex=\"0\"><title>", harness ? "harness" : "raw");
	escape(out, name);
	fprintf(out, ", loop %zu: best ", index + 1);
	number(out, side->best, 0);
	fputs(", median ", out);
	number(out, side->median, 0);
	fputs(", worst ", out);
	number(out, side->worst, 0);
	fprintf(out, " %s</title>\n", pair->unit);
	fprintf(out, "<rect class=\"hit\" x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>", y - ROW_HEIGHT / 2.0,
		CHART_WIDTH, ROW_HEIGHT);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LABEL_RIGHT - 10, y + 4);
	escape(out, name);
	fprintf(out, " &#183; loop %zu</text>\n", index + 1);
	fprintf(out, "<line class=\"range\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", best,
		worst, y, y);
	fprintf(out, "<line class=\"notch\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", median,
		median, y - 5, y + 5);
	fprintf(out, "<circle class=\"best%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"/>\n",
		harness && loop->indistinguishable ? " hollow" : "", best, y);
	fprintf(out, "<text class=\"numbers\" x=\"%d\" y=\"%.1f\">", LABEL_RIGHT + PLOT_WIDTH + 14, y + 4);
	number(out, side->best, 0);
	fputs(" (", out);
	number(out, side->median, 0);
	fprintf(out, ") %s</text>\n", pair->unit);
	if (harness) {
		fprintf(out, "<text class=\"loop-verdict\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
			CHART_WIDTH - 4, y + 4);
		verdict_text(out, loop->indistinguishable, loop->overhead);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

static void draw_pair(FILE *out, const struct results_wall_pair *pair, size_t index)
{
	struct axis axis = pair_axis(pair);
	double top = AXIS_HEIGHT, bottom, y;
	size_t i;
	int side;

	bottom = top + (double)(2 * pair->loop_count) * ROW_HEIGHT + GROUP_GAP;
	fprintf(out, "<figure class=\"pair\" id=\"pair-%zu\">\n<figcaption><strong>", index + 1);
	escape(out, pair->name);
	fputs("</strong> against the raw loop <strong>", out);
	escape(out, pair->raw_name ? pair->raw_name : "(unnamed)");
	fprintf(out, "</strong>: <span class=\"verdict %s\">",
		pair->indistinguishable ? "indistinguishable" : "measured");
	verdict_text(out, pair->indistinguishable, pair->overhead);
	fputs("</span>", out);
	if (!pair->indistinguishable) {
		fputs(" (median ", out);
		percent(out, pair->median_overhead);
		fputs(")", out);
	}
	if (pair->title != NULL) {
		fputs("<br><span class=\"title\">", out);
		escape(out, pair->title);
		fputs("</span>", out);
	}
	fprintf(out, "</figcaption>\n<svg class=\"wall-chart\" role=\"img\" viewBox=\"0 0 %d %.0f\" "
		"width=\"%d\" height=\"%.0f\" aria-label=\"", CHART_WIDTH, bottom + 6, CHART_WIDTH,
		bottom + 6);
	escape(out, pair->name);
	fputs(": each loop against the raw loop's best round\">\n", out);
	draw_axis(out, &axis, top, bottom, pair);
	for (side = 0; side < 2; side++) {
		for (i = 0; i < pair->loop_count; i++) {
			y = top + ROW_HEIGHT / 2.0 + (double)(side * pair->loop_count + i) * ROW_HEIGHT +
			    side * GROUP_GAP;
			draw_loop(out, &axis, pair, i, side == 1, y);
		}
	}
	fputs("</svg>\n</figure>\n", out);
}

static void legend(FILE *out)
{
	fputs("<div class=\"legend\" aria-hidden=\"true\">"
	      "<span><svg width=\"34\" height=\"12\"><line x1=\"4\" x2=\"30\" y1=\"6\" y2=\"6\" "
	      "stroke=\"#2563c9\" stroke-width=\"7\" stroke-linecap=\"round\"/></svg>rounds, best to "
	      "slowest</span>"
	      "<span><svg width=\"14\" height=\"12\"><circle cx=\"7\" cy=\"6\" r=\"4.5\" "
	      "fill=\"#1d2430\"/></svg>best round</span>"
	      "<span><svg width=\"14\" height=\"12\"><rect x=\"2\" y=\"0\" width=\"10\" height=\"12\" "
	      "fill=\"#2563c9\"/><line x1=\"7\" x2=\"7\" y1=\"1\" y2=\"11\" stroke=\"#fff\" "
	      "stroke-width=\"2\"/></svg>median round</span>"
	      "<span><svg width=\"22\" height=\"12\"><rect width=\"22\" height=\"12\" "
	      "fill=\"#e9eef6\"/></svg>spread of the rounds</span>"
	      "<span><svg width=\"14\" height=\"12\"><circle cx=\"7\" cy=\"6\" r=\"4.5\" fill=\"#fff\" "
	      "stroke=\"#1d2430\" stroke-width=\"2\"/></svg>indistinguishable</span></div>\n", out);
}

static void summary_cell(FILE *out, const struct results_wall_summary *summary, const char *unit)
{
	fputs("<td class=\"num\">", out);
	number(out, summary->best, 0);
	fputs(" (", out);
	number(out, summary->median, 0);
	fprintf(out, ") %s</td>", unit);
}

static void wall_table(FILE *out, const struct results_view *page)
{
	size_t i, j;

	fputs("<details class=\"numbers\"><summary>Show the numbers as a table</summary>\n"
	      "<table class=\"wall-table\">\n<thead><tr><th>Scenario</th><th>Loop</th>"
	      "<th>Raw loop</th><th>Harness</th><th>Overhead</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < page->pair_count; i++) {
		const struct results_wall_pair *pair = &page->pairs[i];

		fputs("<tr><th scope=\"row\">", out);
		escape(out, pair->name);
		fputs("</th><td>all rounds</td>", out);
		summary_cell(out, &pair->raw, pair->unit);
		summary_cell(out, &pair->framework, pair->unit);
		fputs("<td>", out);
		verdict_text(out, pair->indistinguishable, pair->overhead);
		fputs("</td></tr>\n", out);
		for (j = 0; pair->loop_count > 1 && j < pair->loop_count; j++) {
			fputs("<tr><th scope=\"row\">", out);
			escape(out, pair->name);
			fprintf(out, "</th><td>loop %zu</td>", j + 1);
			summary_cell(out, &pair->loops[j].raw, pair->unit);
			summary_cell(out, &pair->loops[j].framework, pair->unit);
			fputs("<td>", out);
			verdict_text(out, pair->loops[j].indistinguishable, pair->loops[j].overhead);
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</tbody></table>\n<p class=\"muted\">The best round, with the median in parentheses."
	      "</p></details>\n", out);
}

static void wall_section(FILE *out, const struct results_view *page)
{
	size_t i;

	fputs("<section id=\"wall\">\n<h2>Against the raw loop</h2>\n", out);
	if (page->pair_count == 0) {
		fputs("<p class=\"muted\">No wall-clock figures in this document: run "
		      "<code>gate time</code>.</p>\n</section>\n", out);
		return;
	}
	fputs("<p>Each scenario runs natively against a hand-written loop over the same bodies with "
	      "the same handler and no queue, in interleaved rounds. A loop is a bar from its best "
	      "round to its slowest, with a dot at the best round and a notch at the median; zero is "
	      "the raw loop's best round, and a dot right of zero is slower than it. A difference "
	      "smaller than the spread of the rounds (shaded) is <em>indistinguishable</em> and gets "
	      "no percentage. Informational: wall clock is never gated.</p>\n", out);
	legend(out);
	for (i = 0; i < page->pair_count; i++)
		draw_pair(out, &page->pairs[i], i);
	wall_table(out, page);
	for (i = 0; i < page->pair_count; i++) {
		if (page->pairs[i].method != NULL) {
			fputs("<p class=\"muted\">How: ", out);
			escape(out, page->pairs[i].method);
			fputs(".</p>\n", out);
			break;
		}
	}
	fputs("</section>\n", out);
}

static void bar(FILE *out, double value, double largest, const char *what)
{
	double width = largest > 0 ? value / largest * BAR_PIXELS : 0;

	fprintf(out, "<svg class=\"bar\" width=\"%d\" height=\"8\" role=\"img\" aria-label=\"",
		BAR_PIXELS);
	number(out, value, 3);
	fprintf(out, " %s\"><rect class=\"track\" width=\"%d\" height=\"8\"/><rect width=\"%.1f\" "
		"height=\"8\"/></svg>", what, BAR_PIXELS, width);
}

/* Whether the table has a column of its own for `metric`: every metric but instructions and
 * allocations (the first columns) that a row of the document has figures of. */
static bool metric_column(const struct results_view *page, size_t metric)
{
	size_t i;

	if (metric == METRIC_INSTRUCTIONS || metric == METRIC_ALLOCATIONS)
		return false;
	for (i = 0; i < page->code.count; i++)
		if (page->code.measurements[i].has[metric] || page->code.measurements[i].stated[metric])
			return true;
	return false;
}

/* A metric's heading: its title, capitalised, and what its figure is in ("bytes / msg"); the
 * cold figure beneath, as each cell shows it. */
static void metric_heading(FILE *out, const struct metric *metric)
{
	fputs("<th class=\"num\">", out);
	fputc(metric->title[0] >= 'a' && metric->title[0] <= 'z' ? metric->title[0] - 'a' + 'A'
								  : metric->title[0], out);
	escape(out, metric->title + 1);
	fputs("<div class=\"title\">", out);
	escape(out, metric->unit);
	fputs(" / msg, cold</div></th>", out);
}

/* A metric's cell: per message, the cold figure beneath; a dash when the row has none. */
static void metric_cell(FILE *out, const struct measurement *row, size_t metric)
{
	fputs("<td class=\"num\">", out);
	if (row->has[metric] || row->stated[metric]) {
		number(out, row->slopes[metric].per_message, 3);
		fputs("<div class=\"muted\">", out);
		number(out, (double)row->slopes[metric].cold, 0);
		fputs(" cold</div>", out);
	} else {
		fputs("&#8211;", out);
	}
	fputs("</td>", out);
}

/* One scenario of the page: its code figures, its verdict row, or both. */
struct page_scenario {
	const char *name;
	const struct measurement *code;                /* NULL: failed or missing */
	const struct results_verdict_row *verdict_row; /* NULL: the document has no verdict */
};

/* Failed first, then missing, regressed, accepted, and the rest; by name within each. */
static int state_rank(const struct page_scenario *scenario)
{
	static const char *const first[] = { "failed", "missing", "regressed", "accepted" };
	const char *state = scenario->verdict_row != NULL ? scenario->verdict_row->state : NULL;
	size_t i;

	for (i = 0; state != NULL && i < sizeof(first) / sizeof(first[0]); i++)
		if (strcmp(state, first[i]) == 0)
			return (int)i;
	return (int)(sizeof(first) / sizeof(first[0]));
}

static int compare_scenarios(const void *left, const void *right)
{
	const struct page_scenario *a = left, *b = right;
	int order = state_rank(a) - state_rank(b);

	return order != 0 ? order : strcmp(a->name, b->name);
}

/* Every scenario of the code section and of the verdict, once, failed ones first; NULL when out
 * of memory. */
static struct page_scenario *page_scenarios(const struct results_view *page,
					    const struct results_verdict *verdict, size_t *count)
{
	const struct measurement *code = page->code.measurements;
	size_t rows = verdict != NULL ? verdict->row_count : 0, i, j;
	struct page_scenario *list = calloc(page->code.count + rows + 1, sizeof(*list));

	*count = 0;
	for (i = 0; list != NULL && i < page->code.count; i++)
		list[(*count)++] = (struct page_scenario){
			code[i].info.name, &code[i],
			verdict != NULL ? results_verdict_find(verdict, code[i].info.name) : NULL };
	for (i = 0; list != NULL && i < rows; i++) {
		for (j = 0; j < page->code.count && strcmp(code[j].info.name, verdict->rows[i].name) != 0; j++)
			;
		if (j == page->code.count)
			list[(*count)++] = (struct page_scenario){ verdict->rows[i].name, NULL,
								   &verdict->rows[i] };
	}
	if (list != NULL && *count > 1)
		qsort(list, *count, sizeof(*list), compare_scenarios);
	return list;
}

/* The state's CSS class: a known state's name, else "other" (the text is the document's). */
static const char *state_class(const char *state)
{
	static const char *const known[] = { "ok", "improved", "regressed", "accepted",
					     "new", "missing", "failed" };
	size_t i;

	for (i = 0; state != NULL && i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(state, known[i]) == 0)
			return known[i];
	return "other";
}

static void state_cell(FILE *out, const struct page_scenario *scenario)
{
	const char *state = scenario->verdict_row != NULL ? scenario->verdict_row->state : NULL;

	if (state == NULL) {
		fputs("<td class=\"state\"></td>", out);
		return;
	}
	fprintf(out, "<td class=\"state\"><span class=\"state-%s\">", state_class(state));
	escape(out, state);
	fputs("</span></td>", out);
}

/* Against the baseline: a line per figure of a metric gated at a limit that the verdict compared
 * (the metric table names them), its change and the baseline figure it is from. */
static void baseline_cell(FILE *out, const struct results_verdict_row *row)
{
	size_t metric;
	bool any = false;
	int cold;

	fputs("<td class=\"num against\">", out);
	for (metric = 0; row != NULL && metric < METRIC_COUNT; metric++) {
		for (cold = 0; cold < 2; cold++) {
			const struct results_figures *figures = &row->figures[metric][cold];

			if (!row->has_figures[metric][cold] || !figures->has_baseline)
				continue;
			fputs("<div>", out);
			if (cold || metric != METRIC_INSTRUCTIONS)
				fprintf(out, "<span class=\"muted\">%s%s</span> ", cold ? "cold " : "",
					metric_table[metric].title);
			percent(out, figures->change_percent);
			fputs(" <span class=\"muted\">from ", out);
			number(out, figures->baseline, 3);
			fputs("</span></div>", out);
			any = true;
		}
	}
	fputs(any ? "</td>" : "&#8212;</td>", out);
}

static void code_row(FILE *out, const struct results_view *page,
		     const struct page_scenario *scenario, double most_instructions,
		     double most_allocations)
{
	const struct measurement *row = scenario->code;
	const struct slope *instructions, *allocations;
	size_t metric, columns = 0;

	fprintf(out, "<tr class=\"scenario state-row-%s\"><th scope=\"row\">",
		state_class(scenario->verdict_row != NULL ? scenario->verdict_row->state : NULL));
	escape(out, scenario->name);
	if (row != NULL && row->info.title != NULL) {
		fputs("<div class=\"title\">", out);
		escape(out, row->info.title);
		fputs("</div>", out);
	}
	fputs("</th>", out);
	state_cell(out, scenario);
	for (metric = 0; metric < METRIC_COUNT; metric++)
		columns += metric_column(page, metric);
	if (row == NULL) {
		fprintf(out, "<td colspan=\"%zu\" class=\"failure\">", 5 + columns);
		escape(out, scenario->verdict_row->failure != NULL ? scenario->verdict_row->failure
								   : "not measured");
		fputs("</td></tr>\n", out);
		return;
	}
	instructions = &row->slopes[METRIC_INSTRUCTIONS];
	allocations = &row->slopes[METRIC_ALLOCATIONS];
	fputs("<td class=\"num\">", out);
	number(out, instructions->per_message, 3);
	bar(out, instructions->per_message, most_instructions, "instructions per message");
	fputs("</td>", out);
	baseline_cell(out, scenario->verdict_row);
	fputs("<td class=\"num\">", out);
	number(out, allocations->per_message, 3);
	bar(out, allocations->per_message, most_allocations, "allocations per message");
	fputs("</td><td class=\"num\">", out);
	number(out, (double)instructions->cold, 0);
	fputs(" / ", out);
	number(out, (double)allocations->cold, 0);
	fputs("</td>", out);
	for (metric = 0; metric < METRIC_COUNT; metric++)
		if (metric_column(page, metric))
			metric_cell(out, row, metric);
	fprintf(out, "<td>%s</td></tr>\n", !row->has_gated ? "" : row->info.gated ? "yes" : "no");
}

static void code_section(FILE *out, const struct results_view *page,
			 const struct results_verdict *verdict)
{
	double most_instructions = 0, most_allocations = 0;
	struct page_scenario *scenarios;
	size_t i, count, metric;

	fputs("<section id=\"code\">\n<h2>Cost of the code</h2>\n", out);
	scenarios = page_scenarios(page, verdict, &count);
	if (scenarios == NULL || count == 0) {
		fputs("<p class=\"muted\">No code figures in this document: run <code>gate</code>."
		      "</p>\n</section>\n", out);
		free(scenarios);
		return;
	}
	fputs("<p>Per message in the steady state, (count(2N) &#8722; count(N)) / N, from "
	      "callgrind (instructions) and DHAT (heap allocations) inside the measured region. "
	      "The cold start is the whole first run: starting the service and taking one delivery. "
	      "Counts, not seconds: they repeat to the digit. Failed scenarios come first; the "
	      "baseline and the change are those of every figure gated at a limit.</p>\n", out);
	for (i = 0; i < page->code.count; i++) {
		const struct slope *slopes = page->code.measurements[i].slopes;

		if (slopes[METRIC_INSTRUCTIONS].per_message > most_instructions)
			most_instructions = slopes[METRIC_INSTRUCTIONS].per_message;
		if (slopes[METRIC_ALLOCATIONS].per_message > most_allocations)
			most_allocations = slopes[METRIC_ALLOCATIONS].per_message;
	}
	fputs("<div class=\"wide\"><table class=\"code-table\">\n<thead><tr><th>Scenario</th>"
	      "<th>State</th><th class=\"num\">Instructions / msg</th>"
	      "<th class=\"num\">Against the baseline</th><th class=\"num\">Allocations / msg</th>"
	      "<th class=\"num\">Cold start instr. / alloc.</th>", out);
	for (metric = 0; metric < METRIC_COUNT; metric++)
		if (metric_column(page, metric))
			metric_heading(out, &metric_table[metric]);
	fputs("<th>Gated</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < count; i++)
		code_row(out, page, &scenarios[i], most_instructions, most_allocations);
	fputs("</tbody></table></div>\n</section>\n", out);
	free(scenarios);
}

/* Each regressed scenario's call tree against the baseline's, when the document holds both. */
static void flame_section(FILE *out, const struct results_view *page,
			  const struct results_verdict *verdict)
{
	bool opened = false;
	size_t i, j;

	for (i = 0; verdict != NULL && i < verdict->row_count; i++) {
		const struct results_verdict_row *row = &verdict->rows[i];
		const struct measurement *head = NULL;
		struct flame_change *changes = NULL;
		size_t count = 0;
		char id[80];

		for (j = 0; j < page->code.count && head == NULL; j++)
			if (strcmp(page->code.measurements[j].info.name, row->name) == 0)
				head = &page->code.measurements[j];
		if (head == NULL || head->frame_count == 0 || row->baseline_frame_count == 0 ||
		    flame_compare(&changes, &count, head->frames, head->frame_count,
				  row->baseline_frames, row->baseline_frame_count) != 0)
			continue;
		if (!opened)
			fputs("<section id=\"flames\">\n<h2>Where the cost went</h2>\n<p>For each "
			      "regressed scenario, one message&#8217;s call tree from the measured "
			      "region down: each frame as wide as its inclusive instructions per "
			      "message in the head, coloured by its change against the baseline on the "
			      "same call path (the allocator included). Hover a frame for its figures."
			      "</p>\n", out);
		opened = true;
		snprintf(id, sizeof(id), "flame-%zu", i);
		fputs("<figure class=\"flame\">", out);
		flamegraph_write(out, changes, count, row->name, id, false);
		fputs("</figure>\n", out);
		free(changes);
	}
	if (opened)
		fputs("</section>\n", out);
}

/* The verdict first: what the run decided and its exit code, as gate wrote them. */
static void verdict_section(FILE *out, const struct results_verdict *verdict)
{
	static const char *const outcomes[] = { "pass", "regression", "usage or input error",
						"measurement failure", "no comparable baseline" };
	/* A code outside 0..255 is no exit code: the document's, untrusted, never cast as it is. */
	int code = verdict != NULL && verdict->has_exit_code && verdict->exit_code >= 0 &&
			   verdict->exit_code <= 255 && verdict->exit_code == floor(verdict->exit_code)
		   ? (int)verdict->exit_code
		   : -1;

	if (code < 0) {
		fputs("<section id=\"verdict\" class=\"verdict-none\">\n<p><strong>No verdict</strong>"
		      " in this document: it holds figures only (a baseline, or gate time's).</p>\n"
		      "</section>\n", out);
		return;
	}
	fprintf(out, "<section id=\"verdict\" class=\"verdict-%s\">\n<p><strong>",
		code == 0 ? "pass" : "fail");
	/* gate's summary names the outcome first ("pass: 6 scenarios within their limits") */
	if (verdict->summary != NULL)
		escape(out, verdict->summary);
	else
		fputs(code < (int)(sizeof(outcomes) / sizeof(outcomes[0])) ? outcomes[code] : "done",
		      out);
	fprintf(out, "</strong> (exit %d)</p>\n</section>\n", code);
}

static const char *machine_label(const char *key)
{
	static const char *const labels[][2] = {
		{ "cpu", "Processor" }, { "architecture", "Architecture" }, { "cores", "Cores" },
		{ "memory", "Memory" }, { "os", "Operating system" }, { "compiler", "Compiler" },
		{ "valgrind", "Valgrind" }, { "profile", "Build profile" }, { "flags", "Flags" },
	};
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strcmp(labels[i][0], key) == 0)
			return labels[i][1];
	return key;
}

static void machine_section(FILE *out, const struct results_view *page)
{
	size_t i;

	fputs("<section id=\"machine\">\n<h2>Machine</h2>\n", out);
	if (!page->has_environment) {
		fputs("<p class=\"muted\">The document has no environment block.</p>\n</section>\n", out);
		return;
	}
	fputs("<table class=\"machine\"><tbody>\n", out);
	for (i = 0; i < page->fact_count; i++) {
		fputs("<tr><th scope=\"row\">", out);
		escape(out, machine_label(page->facts[i].key));
		fputs("</th><td>", out);
		escape(out, page->facts[i].value);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

/* The drift of each of a scenario's charted series, for its caption. */
static void history_caption(FILE *out, const struct history *history, size_t first, size_t end)
{
	char drift[64];
	size_t i;

	fputs("<figcaption><strong>", out);
	escape(out, history->series[first].scenario);
	fputs("</strong>: drift <span class=\"history-drift-summary\">", out);
	for (i = first; i < end; i++) {
		const struct history_series *series = &history->series[i];

		if (series->figure.cold)
			continue;
		chart_format_percent(drift, sizeof(drift), series->drift_percent);
		fprintf(out, "%s%s %s since ", i > first ? ", " : "", series->label, drift);
		escape(out, history->versions[series->points[0].version].commit.date);
	}
	fputs("</span></figcaption>\n", out);
}

static void history_table(FILE *out, const struct history *history)
{
	char value[64], change[64];
	size_t i, j;

	fputs("<details class=\"numbers\"><summary>Show the numbers as a table</summary>\n"
	      "<table class=\"history-table\">\n<thead><tr><th>Scenario</th><th>Metric</th>"
	      "<th>Date</th><th>Commit</th><th class=\"num\">Figure</th><th class=\"num\">Change"
	      "</th><th>Subject</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < history->series_count; i++) {
		const struct history_series *series = &history->series[i];

		for (j = 0; j < series->point_count; j++) {
			const struct history_point *point = &series->points[j];
			const struct history_version *version = &history->versions[point->version];

			chart_format_value(value, sizeof(value), point->value);
			change[0] = '\0';
			if (point->has_change)
				chart_format_percent(change, sizeof(change), point->change_percent);
			fputs("<tr><th scope=\"row\">", out);
			escape(out, series->scenario);
			fprintf(out, "</th><td>%s</td><td>", series->label);
			escape(out, version->commit.date);
			fputs("</td><td><code>", out);
			escape(out, version->commit.short_hash);
			fprintf(out, "</code></td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>",
				value, change);
			escape(out, version->commit.subject);
			if (version->fingerprint_change != NULL && j > 0) {
				fputs(" <em>(toolchain: ", out);
				escape(out, version->fingerprint_change);
				fputs(")</em>", out);
			}
			if (point->accepted != NULL) {
				fputs(" <em>(accepted: ", out);
				escape(out, point->accepted);
				fputs(")</em>", out);
			}
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</tbody></table></details>\n", out);
}

static void history_section(FILE *out, const struct history *history)
{
	size_t i, end, figure = 0;

	fputs("<section id=\"history\">\n<h2>History</h2>\n<p>", out);
	escape(out, history->path);
	fputs(" on <code>", out);
	escape(out, history->ref);
	fprintf(out, "</code>: %zu version%s from ", history->version_count,
		history->version_count == 1 ? "" : "s");
	escape(out, history->versions[0].commit.date);
	fputs(" to ", out);
	escape(out, history->versions[history->version_count - 1].commit.date);
	fputs(". One step per version of the baseline; a dot is a commit that changed the figure "
	      "(its subject on hover), orange when baselines/accepted.json accepted the rise, and a "
	      "dashed violet line a version measured with another toolchain: a step there is the "
	      "toolchain's, not the code's. The drift is from the first figure shown to the last.</p>\n",
	      out);
	for (i = 0; i < history->series_count; i = end) {
		size_t j;

		for (end = i; end < history->series_count &&
			      strcmp(history->series[end].scenario, history->series[i].scenario) == 0;
		     end++)
			;
		fprintf(out, "<figure class=\"history\" id=\"history-%zu\">\n", ++figure);
		history_caption(out, history, i, end);
		fputs("<div class=\"history-charts\">\n", out);
		for (j = i; j < end; j++)
			if (!history->series[j].figure.cold)
				chart_history(out, history, &history->series[j], false);
		fputs("</div>\n</figure>\n", out);
	}
	history_table(out, history);
	for (i = 0; i < history->skipped_count; i++) {
		fputs("<p class=\"muted skipped\">Skipped ", out);
		escape(out, history->skipped[i].commit.short_hash);
		fputs(" (", out);
		escape(out, history->skipped[i].commit.date);
		fputs("): ", out);
		escape(out, history->skipped[i].problem);
		fputs("</p>\n", out);
	}
	fputs("</section>\n", out);
}

void page_write(FILE *out, const struct results_view *page, const struct results_verdict *verdict,
		const struct history *history, const char *source)
{
	const char *base = strrchr(source, '/');

	head(out);
	verdict_section(out, verdict);
	intro(out);
	code_section(out, page, verdict);
	flame_section(out, page, verdict);
	wall_section(out, page);
	if (history != NULL)
		history_section(out, history);
	machine_section(out, page);
	fputs("<p class=\"muted\">Written by gate report from ", out);
	escape(out, base != NULL ? base + 1 : source);
	fputs(".</p>\n</body>\n</html>\n", out);
}
