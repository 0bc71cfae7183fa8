/* Unit tests of the results page: the verdict it opens with, every scenario with its state, failed
 * ones first, what it draws for each loop, what it refuses, and that nothing in it reaches
 * outside the file. */
#define _GNU_SOURCE
#include "check.h"
#include "page.h"

#include <stdio.h>
#include <stdlib.h>

/* Two loops of one pair (the harness loop 2 indistinguishable), two code rows, a machine. */
static const char document[] =
	"{\"schema\":3,\"environment\":{\"cpu\":\"Test CPU\",\"os\":\"Linux\"},"
	"\"scenarios\":[{\"name\":\"consume_json\",\"unit\":\"msg/s\",\"messages\":1000,\"pairs\":4,"
	"\"raw\":{\"best\":1000,\"median\":990,\"worst\":980},"
	"\"framework\":{\"best\":900,\"median\":895,\"worst\":890},"
	"\"overhead_percent\":11.11,\"verdict\":\"measured\",\"raw_scenario\":\"decode_only\","
	"\"loops\":[{\"raw\":{\"best\":1000,\"median\":995,\"worst\":990},"
	"\"framework\":{\"best\":900,\"median\":895,\"worst\":890},"
	"\"overhead_percent\":11.11,\"verdict\":\"measured\"},"
	"{\"raw\":{\"best\":990,\"median\":985,\"worst\":980},"
	"\"framework\":{\"best\":985,\"median\":980,\"worst\":975},"
	"\"overhead_percent\":0.51,\"verdict\":\"indistinguishable\"}]}],"
	"\"code\":[{\"name\":\"consume_json\",\"messages\":1000,"
	"\"framework\":{\"instructions\":17312,\"allocations\":19},"
	"\"cold\":{\"instructions\":23632,\"allocations\":19},\"gated\":true},"
	"{\"name\":\"consume_raw\",\"messages\":1000,"
	"\"framework\":{\"instructions\":47,\"allocations\":0},"
	"\"cold\":{\"instructions\":112,\"allocations\":0},\"gated\":true}]}";

/* Writes the page of `text` into an owned string; NULL when the results module refused the
 * document (err says why). */
static char *render(const char *text, struct gate_error *err)
{
	cJSON *parsed = cJSON_Parse(text);
	struct results_view view;
	struct results_verdict verdict;
	struct printed printed;
	char *page;

	if (results_view_read(&view, parsed, "fixture.json", err) != 0) {
		CHECK(view.pairs == NULL && view.code.measurements == NULL && view.facts == NULL); /* released */
		cJSON_Delete(parsed);
		return NULL;
	}
	if (results_verdict_read(&verdict, parsed, "fixture.json", err) != 0) {
		results_view_release(&view);
		cJSON_Delete(parsed);
		return NULL;
	}
	page_write(print_to(&printed), &view, &verdict, NULL, "fixture.json");
	page = printed_text(&printed);
	results_verdict_release(&verdict);
	results_view_release(&view);
	cJSON_Delete(parsed);
	return page;
}

/* The page of `text`, which must be read (owned). */
static char *rendered(const char *text)
{
	struct gate_error err = GATE_ERROR_INIT;
	char *page = render(text, &err);

	CHECK(page != NULL);
	CHECK_STR(err.message, "");
	return page;
}

static void page_should_draw_every_loop_of_both_sides(void)
{
	char *page = rendered(document);

	CHECK(check_count(page, "<svg class=\"wall-chart\"") == 1);
	CHECK(check_count(page, "<g class=\"loop raw\"") == 2);
	CHECK(check_count(page, "<g class=\"loop harness\"") == 2);
	CHECK(check_count(page, "<line class=\"range\"") == 4);
	CHECK(check_count(page, "<line class=\"notch\"") == 4);
	CHECK(check_count(page, "<circle class=\"best") == 4);
	CHECK(check_count(page, "<circle class=\"best hollow\"") == 1); /* harness loop 2 */
	CHECK(check_count(page, "<rect class=\"spread\"") == 1);
	CHECK(check_count(page, "<line class=\"zero\"") == 1);
	free(page);
}

static void page_should_print_a_percentage_only_for_a_measured_verdict(void)
{
	char *page = rendered(document);

	CHECK_CONTAINS(page, "<span class=\"verdict measured\">+11.11&#8239;%</span>");
	CHECK_CONTAINS(page, "<text class=\"loop-verdict\" x=\"816\" y=\"");
	CHECK(check_count(page, ">indistinguishable</text>") == 1);
	CHECK(check_count(page, "+0.51") == 0); /* the loop's figure below the spread is never shown */
	free(page);
}

static void page_should_tabulate_every_chart_and_the_machine(void)
{
	char *page = rendered(document);

	CHECK_CONTAINS(page, "<table class=\"wall-table\">");
	CHECK_CONTAINS(page, "<td class=\"num\">1&#8239;000 (990) msg/s</td>");
	CHECK(check_count(page, "<svg class=\"bar\"") == 4); /* two rows, two figures each */
	CHECK_CONTAINS(page, "17&#8239;312");
	CHECK_CONTAINS(page, "23&#8239;632 / 19");
	CHECK_CONTAINS(page, "<th scope=\"row\">Processor</th><td>Test CPU</td>");
	free(page);
}

static void page_should_fetch_nothing_and_run_no_script(void)
{
	char *page = rendered(document);

	CHECK(strstr(page, "http:") == NULL && strstr(page, "https:") == NULL);
	CHECK(strstr(page, "<script") == NULL && strstr(page, "<link") == NULL);
	CHECK(strstr(page, "src=") == NULL && strstr(page, "url(") == NULL &&
	      strstr(page, "@import") == NULL);
	CHECK_CONTAINS(page, "Content-Security-Policy\" content=\"default-src 'none'");
	free(page);
}

static void page_should_escape_every_string_of_the_document(void)
{
	char *page = rendered("{\"code\":[{\"name\":\"<script>alert('x')</script>\",\"title\":\"a & b\","
			      "\"framework\":{\"instructions\":1,\"allocations\":0},"
			      "\"cold\":{\"instructions\":1,\"allocations\":0}}],"
			      "\"environment\":{\"cpu\":\"\\\"quoted\\\" <b>\"}}");

	CHECK(strstr(page, "<script") == NULL && strstr(page, "<b>") == NULL);
	CHECK_CONTAINS(page, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	CHECK_CONTAINS(page, "a &amp; b");
	CHECK_CONTAINS(page, "&quot;quoted&quot; &lt;b&gt;");
	free(page);
}

static void page_should_read_a_schema_3_entry_without_median_or_loops(void)
{
	char *page = rendered("{\"scenarios\":[{\"name\":\"other crate\",\"unit\":\"msg/s\","
			      "\"raw\":{\"best\":100,\"worst\":90},\"framework\":{\"best\":99,\"worst\":91},"
			      "\"overhead_percent\":1.0,\"verdict\":\"indistinguishable\"}]}");

	CHECK(check_count(page, "<g class=\"loop") == 2); /* one loop a side: the entry itself */
	CHECK_CONTAINS(page, "100 (90) msg/s"); /* the worst round stands in for the median */
	CHECK_CONTAINS(page, "No code figures in this document");
	free(page);
}

/* A document the page refuses, and what the message says of it. */
struct refused {
	const char *name;
	const char *text, *problem;
};

#define ONE_SCENARIO(raw, verdict)                                                               \
	"{\"scenarios\":[{\"name\":\"x\",\"raw\":" raw ",\"framework\":{\"best\":1,\"worst\":1},"  \
	"\"overhead_percent\":0,\"verdict\":\"" verdict "\"}]}"

static const struct refused refusals[] = {
	{ "page_should_refuse_a_figure_that_is_not_a_number",
	  ONE_SCENARIO("{\"best\":\"fast\",\"worst\":1}", "measured"),
	  "scenarios[0].raw.best is not a number" },
	{ "page_should_refuse_a_worst_round_above_the_best",
	  ONE_SCENARIO("{\"best\":1,\"worst\":2}", "measured"),
	  "scenarios[0].raw is not best >= median >= worst > 0" },
	{ "page_should_refuse_a_verdict_it_does_not_know",
	  ONE_SCENARIO("{\"best\":1,\"worst\":1}", "faster"),
	  "scenarios[0].verdict is neither 'measured' nor 'indistinguishable'" },
	{ "page_should_refuse_a_code_entry_without_allocations",
	  "{\"code\":[{\"name\":\"x\",\"framework\":{\"instructions\":1},"
	  "\"cold\":{\"instructions\":1,\"allocations\":0}}]}",
	  "code[0].framework.allocations is missing" },
	/* gate's metrics beyond schema 3: an entry of the wrong shape is refused by its path. */
	{ "page_should_refuse_a_metric_of_the_wrong_shape",
	  "{\"schema\":3,\"code\":[{\"name\":\"walk\",\"framework\":{\"instructions\":1,"
	  "\"allocations\":0},\"cold\":{\"instructions\":9,\"allocations\":2},"
	  "\"metrics\":{\"cycles\":{\"per_message\":\"many\",\"cold\":1,\"unit\":\"cycles\"}}}]}",
	  "code[0].metrics.cycles.per_message is not a non-negative number" },
	{ "page_should_refuse_a_call_tree_that_skips_a_level",
	  "{\"schema\":3,\"code\":[{\"name\":\"walk\",\"framework\":{\"instructions\":1,"
	  "\"allocations\":0},\"cold\":{\"instructions\":9,\"allocations\":2},"
	  "\"frames\":[{\"name\":\"r\",\"depth\":0,\"instructions\":1},"
	  "{\"name\":\"f\",\"depth\":2,\"instructions\":1}]}]}",
	  "code[0].frames is no call tree (the first at depth 0, each at most one level below the one "
	  "before)" },
	{ "page_should_refuse_a_document_without_scenarios_or_code", "{\"schema\":3}",
	  "it has neither a scenarios nor a code section" },
	{ "page_should_refuse_a_document_that_is_not_an_object", "[]", "not a JSON object" },
};

static void check_refused(const struct refused *row)
{
	struct gate_error err = GATE_ERROR_INIT;
	char expected[sizeof(err.message)];

	CHECK(render(row->text, &err) == NULL);
	snprintf(expected, sizeof(expected), "cannot read results 'fixture.json': %s", row->problem);
	CHECK_STR(err.message, expected);
}

static void page_should_refuse_a_malformed_document_naming_the_value(void)
{
	RUN_ROWS(check_refused, refusals);
}

/* gate's metrics beyond schema 3 are columns of the table, each labelled for people. */
static void page_should_show_the_metrics_gate_adds(void)
{
	char *page = rendered(
		"{\"schema\":3,\"code\":[{\"name\":\"walk\",\"framework\":{\"instructions\":1077,"
		"\"allocations\":0},\"cold\":{\"instructions\":9,\"allocations\":2},\"gated\":true,"
		"\"metrics\":{\"instructions\":{\"per_message\":1077,\"cold\":9,\"unit\":\"instructions\"},"
		"\"cycles\":{\"per_message\":3296.596,\"cold\":16388315,\"unit\":\"cycles\"}}}]}");

	/* A column of its own, labelled by the metric's title and unit, never its key. */
	CHECK_CONTAINS(page, "<th class=\"num\">Estimated cycles<div class=\"title\">cycles / msg, "
			     "cold</div></th><th>Gated</th>");
	CHECK_CONTAINS(page, "<td class=\"num\">3&#8239;296.596<div class=\"muted\">"
			     "16&#8239;388&#8239;315 cold</div></td><td>yes</td>");
	CHECK(page == NULL || (strstr(page, "cycles:") == NULL && strstr(page, "Instructions<") == NULL));
	free(page);
}

/* Three scenarios of a run with a verdict: one failed to measure (no code entry), one regressed
 * against its baseline, one within its limits. */
static const char with_verdict[] =
	"{\"schema\":3,\"code\":["
	"{\"name\":\"alpha\",\"framework\":{\"instructions\":100,\"allocations\":1},"
	"\"cold\":{\"instructions\":900,\"allocations\":3},\"gated\":true},"
	"{\"name\":\"reply\",\"framework\":{\"instructions\":20000,\"allocations\":2},"
	"\"cold\":{\"instructions\":50000,\"allocations\":7},\"gated\":true}],"
	"\"costgate\":{\"verdict\":{\"exit_code\":3,"
	"\"summary\":\"measurement failure: 1 failed (zeta), 1 regressed (reply)\",\"rows\":["
	"{\"name\":\"alpha\",\"state\":\"new\"},"
	"{\"name\":\"reply\",\"state\":\"regressed\",\"limit_percent\":5,"
	"\"instructions\":{\"head\":20000,\"baseline\":18000,\"change_percent\":11.111111111111111},"
	"\"cold_instructions\":{\"head\":50000,\"baseline\":50000,\"change_percent\":0}},"
	"{\"name\":\"zeta\",\"state\":\"failed\",\"failure\":\"exited with status 139 <segv>\"}]}}}";

static void page_should_open_with_the_verdict(void)
{
	char *page = rendered(with_verdict);
	const char *verdict = page != NULL ? strstr(page, "<section id=\"verdict\"") : NULL;

	CHECK(verdict != NULL && verdict < strstr(page, "<section id=\"code\"") &&
	      verdict < strstr(page, "<section id=\"wall\""));
	CHECK_CONTAINS(page, "<section id=\"verdict\" class=\"verdict-fail\">\n<p><strong>measurement "
			     "failure: 1 failed (zeta), 1 regressed (reply)</strong> (exit 3)</p>");
	free(page);
	page = rendered(document); /* figures only */
	CHECK_CONTAINS(page, "<section id=\"verdict\" class=\"verdict-none\">");
	free(page);
	page = rendered("{\"code\":[],\"costgate\":{\"verdict\":{\"exit_code\":1e300,\"rows\":[]}}}");
	CHECK_CONTAINS(page, "<section id=\"verdict\" class=\"verdict-none\">"); /* no exit code */
	free(page);
}

static void page_should_show_every_scenario_failed_ones_first_with_state_baseline_and_change(void)
{
	char *page = rendered(with_verdict);
	const char *zeta = page != NULL ? strstr(page, "<tr class=\"scenario state-row-failed\"><th scope=\"row\">zeta") : NULL;
	const char *reply = page != NULL ? strstr(page, "<th scope=\"row\">reply") : NULL;
	const char *alpha = page != NULL ? strstr(page, "<th scope=\"row\">alpha") : NULL;

	CHECK(zeta != NULL && reply != NULL && alpha != NULL && zeta < reply && reply < alpha);
	CHECK(check_count(page, "<tr class=\"scenario") == 3);
	CHECK_CONTAINS(page, "<td class=\"state\"><span class=\"state-failed\">failed</span></td>"
			     "<td colspan=\"5\" class=\"failure\">exited with status 139 &lt;segv&gt;</td>");
	CHECK_CONTAINS(page, "<span class=\"state-regressed\">regressed</span>");
	CHECK_CONTAINS(page, "<div>+11.11&#8239;% <span class=\"muted\">from 18&#8239;000</span></div>");
	CHECK_CONTAINS(page, "<div><span class=\"muted\">cold instructions</span> +0.00&#8239;% "
			     "<span class=\"muted\">from 50&#8239;000</span></div>");
	CHECK_CONTAINS(page, "<td class=\"num against\">&#8212;</td>"); /* no baseline figures */
	free(page);
}

/* A regressed scenario whose document holds its call tree and the baseline's: drawn against each
 * other under "Where the cost went"; one without the baseline's is not drawn. */
static const char with_frames[] =
	"{\"schema\":3,\"code\":["
	"{\"name\":\"reply\",\"framework\":{\"instructions\":1000,\"allocations\":2},"
	"\"cold\":{\"instructions\":5000,\"allocations\":7},\"gated\":true,\"frames\":["
	"{\"name\":\"costgate_measured_region\",\"depth\":0,\"instructions\":1000},"
	"{\"name\":\"handle\",\"depth\":1,\"instructions\":1000},"
	"{\"name\":\"parse_query\",\"depth\":2,\"instructions\":600},"
	"{\"name\":\"reply_write\",\"depth\":2,\"instructions\":400}]},"
	"{\"name\":\"batch\",\"framework\":{\"instructions\":10,\"allocations\":0},"
	"\"cold\":{\"instructions\":50,\"allocations\":0},\"gated\":true,\"frames\":["
	"{\"name\":\"costgate_measured_region\",\"depth\":0,\"instructions\":10}]}],"
	"\"costgate\":{\"verdict\":{\"exit_code\":1,\"rows\":["
	"{\"name\":\"batch\",\"state\":\"regressed\"},"
	"{\"name\":\"reply\",\"state\":\"regressed\",\"baseline_frames\":["
	"{\"name\":\"costgate_measured_region\",\"depth\":0,\"instructions\":800},"
	"{\"name\":\"handle\",\"depth\":1,\"instructions\":800},"
	"{\"name\":\"parse_query\",\"depth\":2,\"instructions\":400},"
	"{\"name\":\"reply_write\",\"depth\":2,\"instructions\":400}]}]}}}";

static void page_should_draw_a_regressed_scenarios_call_tree_against_the_baseline(void)
{
	char *page = rendered(with_frames);
	const char *section = page != NULL ? strstr(page, "<section id=\"flames\">") : NULL;

	CHECK(section != NULL && section > strstr(page, "<section id=\"code\""));
	CHECK(check_count(page, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" "
				"viewBox") == 1);
	CHECK_CONTAINS(page, "aria-label=\"reply: call tree of one message, head against the "
			     "baseline\"");
	CHECK_CONTAINS(page, ">parse_query +50.0 %</text>");
	CHECK_CONTAINS(page, ">handle +25.0 %</text>");
	CHECK_CONTAINS(page, "<g class=\"frame same\"><title>reply_write: 400.000 instructions");
	CHECK(page == NULL || strstr(page, "aria-label=\"batch:") == NULL);
	free(page);
	page = rendered(with_verdict); /* no call trees */
	CHECK(page == NULL || strstr(page, "<section id=\"flames\">") == NULL);
	free(page);
}

int main(void)
{
	return RUN_CASES(page_should_draw_every_loop_of_both_sides,
			 page_should_print_a_percentage_only_for_a_measured_verdict,
			 page_should_tabulate_every_chart_and_the_machine,
			 page_should_fetch_nothing_and_run_no_script,
			 page_should_escape_every_string_of_the_document,
			 page_should_read_a_schema_3_entry_without_median_or_loops,
			 page_should_refuse_a_malformed_document_naming_the_value,
			 page_should_show_the_metrics_gate_adds,
			 page_should_open_with_the_verdict,
			 page_should_show_every_scenario_failed_ones_first_with_state_baseline_and_change,
			 page_should_draw_a_regressed_scenarios_call_tree_against_the_baseline);
}
