/* The verdict. Limits are strict ("above" fails, equal passes); a floor is both a ceiling and a
 * promise: above it fails, below it asks for the floor to be lowered in the same change. */
#define _GNU_SOURCE
#include "verdict.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "exit_codes.h"
#include "results_schema.h"
#include "slope.h"

static const char *const state_names[] = { "ok", "improved", "regressed", "accepted",
					   "new", "missing", "failed" };

const char *verdict_state_name(enum verdict_state state)
{
	return state_names[state];
}

/* Is the row a regression that does not fail the run (a scenario that is not gated)? */
static bool regressed_ungated(const struct verdict_row *row)
{
	return row->state == VERDICT_REGRESSED && !row->gated && (row->unaccepted & BREACH_SETTINGS) == 0;
}

const char *verdict_row_state_text(const struct verdict_row *row)
{
	return row->state_text[0] != '\0' ? row->state_text : state_names[row->state];
}

/* What each breach bit that is not a metric's is about, as a reviewer reads it in a row's state;
 * the metrics' words come first, from the metric table. */
static const struct {
	uint64_t bits;
	const char *word;
} breach_words[] = {
	{ BREACH_PROCESS_INSTRUCTIONS, "instructions outside the region" },
	{ BREACH_GROWTH, "growth with the messages handled" },
	{ BREACH_SETTINGS, "settings" },
};

static void add_word(char *text, size_t size, size_t *used, const char *cold, const char *word)
{
	if (*used < size)
		*used += (size_t)snprintf(text + *used, size - *used, "%s%s%s", *used > 0 ? ", " : "",
					  cold, word);
}

/* A metric's figure as a word: its key, its underscores spaces, after "cold " for a cold one
 * ("instructions", "cold peak bytes"). */
static void add_metric_word(char *text, size_t size, size_t *used, size_t metric, int cold)
{
	char word[64], *at;

	snprintf(word, sizeof(word), "%s", metric_table[metric].key);
	for (at = word; (at = strchr(at, '_')) != NULL;)
		*at = ' ';
	add_word(text, size, used, cold ? "cold " : "", word);
}

void verdict_breach_words(uint64_t breaches, char *text, size_t size)
{
	size_t used = 0, i, metric;
	int cold;

	if (size == 0)
		return;
	text[0] = '\0';
	for (metric = 0; metric < METRIC_COUNT; metric++)
		for (cold = 0; cold <= 1; cold++)
			if ((breaches & BREACH_LIMIT(metric, cold)) != 0)
				add_metric_word(text, size, &used, metric, cold);
	for (i = 0; i < sizeof(breach_words) / sizeof(breach_words[0]); i++) {
		if ((breaches & breach_words[i].bits) != 0)
			add_word(text, size, &used, "", breach_words[i].word);
		if (breach_words[i].bits != BREACH_GROWTH)
			continue;
		/* the floors after the limits, before the settings */
		for (metric = 0; metric < METRIC_COUNT; metric++)
			for (cold = 0; cold <= 1; cold++)
				if ((breaches & BREACH_FLOOR_OVER(metric, cold)) != 0)
					add_metric_word(text, size, &used, metric, cold);
	}
}

/* "regressed: instructions, allocations", "accepted: cold instructions", "improved: cycles". */
static void describe_state(struct verdict_row *row)
{
	char words[sizeof(row->state_text) - 32];
	uint64_t about = row->state == VERDICT_REGRESSED ? row->unaccepted
			 : row->state == VERDICT_ACCEPTED ? row->breaches
			 : row->state == VERDICT_IMPROVED ? row->improvements : 0;

	verdict_breach_words(about, words, sizeof(words));
	snprintf(row->state_text, sizeof(row->state_text), "%s%s%s%s", state_names[row->state],
		 words[0] != '\0' ? ": " : "", words, regressed_ungated(row) ? " (not gated)" : "");
}

/* The breach bit of each setting's acceptance kind. */
static const uint64_t setting_breaches[ACCEPT_FIGURES] = {
	BREACH_UNGATED, BREACH_LIMIT_RAISED, BREACH_STEADY_FLOOR_RAISED, BREACH_COLD_FLOOR_RAISED,
	BREACH_PROCESS_INSTRUCTIONS, BREACH_LINEARITY_RAISED, BREACH_ALLOCATOR_LIMIT_RAISED,
	BREACH_GROWTH,
};

uint64_t verdict_metric_breach(unsigned metric)
{
	enum metric_kind kind;
	enum metric_id id;

	if (metric < ACCEPT_FIGURES)
		return setting_breaches[metric];
	if (metric >= VERDICT_ACCEPT_KINDS)
		return 0;
	id = metric_of_kind(metric, &kind);
	switch (kind) {
	case METRIC_KIND_FIGURE:
	case METRIC_KIND_COLD:
		return BREACH_LIMIT(id, kind == METRIC_KIND_COLD);
	case METRIC_KIND_STEADY_FLOOR:
	case METRIC_KIND_COLD_FLOOR:
		return BREACH_FLOOR_RAISED(id, kind == METRIC_KIND_COLD_FLOOR);
	case METRIC_KIND_GATE:
		return BREACH_METRIC_UNGATED(id);
	case METRIC_KINDS:
		break;
	}
	return 0;
}

int verdict_limit_acceptance(enum metric_id metric, enum verdict_figure figure)
{
	return metric_acceptance(metric, figure == VERDICT_COLD);
}

double verdict_limit(const struct verdict_row *row, enum metric_id metric)
{
	switch (metric_table[metric].limit_setting) {
	case METRIC_LIMIT_SCENARIO:
		return row->limit_declared ? row->limit_percent : metric_table[metric].limit_percent;
	case METRIC_LIMIT_ALLOCATOR:
		return row->allocator_limit_percent;
	case METRIC_LIMIT_FIXED:
		break;
	}
	return metric_table[metric].limit_percent;
}

bool verdict_limit_gated(const struct verdict_row *row, enum metric_id metric)
{
	return metric_table[metric].gating == METRIC_LIMIT &&
	       (!metric_table[metric].opt_in || (row->opted_in & (1u << metric)) != 0);
}

double verdict_growth_percent(const struct slope *slope)
{
	if (slope->per_message <= 0 || slope->per_message <= slope->per_message_early)
		return 0;
	return (slope->per_message - slope->per_message_early) / slope->per_message * 100.0;
}

/* The limit a scenario declares, or the default. */
static double declared_limit(const struct measurement *measurement)
{
	return measurement->info.limit_percent > 0 ? measurement->info.limit_percent
						   : VERDICT_DEFAULT_LIMIT_PERCENT;
}

/* The linearity limit a scenario declares, or the default. */
static double declared_linearity(const struct measurement *measurement)
{
	return measurement->info.linearity_percent > 0 ? measurement->info.linearity_percent
						       : SLOPE_LINEARITY_LIMIT_PERCENT;
}

/* Collects the union of head and baseline names, sorted. */
static int collect_rows(struct verdict *verdict, const struct measurement *head, size_t head_count,
			const struct results *baseline, bool missing_counts)
{
	size_t capacity = head_count + (baseline && missing_counts ? baseline->count : 0), i, j;

	verdict->rows = calloc(capacity + 1, sizeof(*verdict->rows));
	if (verdict->rows == NULL)
		return -1;
	for (i = 0; i < head_count; i++) {
		verdict->rows[verdict->row_count].name = head[i].info.name;
		verdict->rows[verdict->row_count++].head = &head[i];
	}
	for (i = 0; baseline && missing_counts && i < baseline->count; i++) {
		bool present = false;

		for (j = 0; j < head_count && !present; j++)
			present = strcmp(head[j].info.name, baseline->measurements[i].info.name) == 0;
		if (!present)
			verdict->rows[verdict->row_count++].name = baseline->measurements[i].info.name;
	}
	return 0;
}

static int compare_rows(const void *left, const void *right)
{
	return strcmp(((const struct verdict_row *)left)->name,
		      ((const struct verdict_row *)right)->name);
}

static void check_floors(struct verdict_row *row)
{
	const struct measurement *head = row->head;

	if (head->slopes[METRIC_ALLOCATIONS].per_message > row->steady_floor)
		row->breaches |= BREACH_STEADY_FLOOR;
	else if (head->slopes[METRIC_ALLOCATIONS].per_message < head->info.steady_floor)
		row->steady_floor_high = true;
	if (head->slopes[METRIC_ALLOCATIONS].cold > row->cold_floor)
		row->breaches |= BREACH_COLD_FLOOR;
	else if (head->slopes[METRIC_ALLOCATIONS].cold < head->info.cold_floor)
		row->cold_floor_high = true;
}

/* One setting against the baseline's: looser is a breach and, unless an acceptance covers the
 * head's value, the baseline's setting applies; stricter is a note. Returns whether the head's
 * setting applies. */
static bool compare_setting(struct verdict_row *row, const struct acceptance *acceptance,
			    unsigned metric, double head, double baseline)
{
	uint64_t bit = verdict_metric_breach(metric);
	const struct acceptance_entry *entry;

	if (head < baseline) {
		row->tightened |= bit;
		return true;
	}
	if (head == baseline)
		return true;
	row->breaches |= bit;
	entry = acceptance_find(acceptance, row->name, metric);
	if (entry != NULL &&
	    (acceptance_value_of(metric_acceptance_figures(), metric) == ACCEPT_VALUE_ZERO ||
	     head <= entry->value ||
	     (acceptance_value_of(metric_acceptance_figures(), metric) == ACCEPT_VALUE_FLOOR &&
	      isinf(head) && entry->value == 0))) {
		row->accepted[metric] = entry;
		return true;
	}
	return false;
}

/* The settings that apply: the head's, or the baseline's where the head loosened one without
 * an acceptance. Gating compares "not gated" as the larger value: 1 for not gated. */
static void apply_settings(struct verdict_row *row, const struct acceptance *acceptance)
{
	const struct measurement *head = row->head, *base = row->baseline;

	row->limit_percent = declared_limit(head);
	row->limit_declared = head->info.limit_percent > 0;
	row->allocator_limit_percent =
		metric_limit_percent(METRIC_ALLOCATOR_INSTRUCTIONS, &head->info);
	row->linearity_percent = declared_linearity(head);
	row->steady_floor = head->info.steady_floor;
	row->cold_floor = head->info.cold_floor;
	row->gated = head->info.gated;
	if (base == NULL)
		return;
	row->baseline_limit_percent = declared_limit(base);
	row->baseline_allocator_limit_percent =
		metric_limit_percent(METRIC_ALLOCATOR_INSTRUCTIONS, &base->info);
	row->baseline_linearity_percent = declared_linearity(base);
	if (!compare_setting(row, acceptance, ACCEPT_ALLOCATOR_LIMIT_PERCENT,
			     row->allocator_limit_percent, row->baseline_allocator_limit_percent))
		row->allocator_limit_percent = row->baseline_allocator_limit_percent;
	/* The linearity limit was applied as the run was measured; a looser one is the breach. */
	compare_setting(row, acceptance, ACCEPT_LINEARITY_PERCENT, row->linearity_percent,
			row->baseline_linearity_percent);
	if (!compare_setting(row, acceptance, ACCEPT_GATED, head->info.gated ? 0 : 1,
			     base->info.gated ? 0 : 1))
		row->gated = true;
	if (!compare_setting(row, acceptance, ACCEPT_LIMIT_PERCENT, row->limit_percent,
			     row->baseline_limit_percent)) {
		row->limit_percent = row->baseline_limit_percent;
		row->limit_declared = base->info.limit_percent > 0;
	}
	if (!compare_setting(row, acceptance, ACCEPT_STEADY_FLOOR, head->info.steady_floor,
			     base->info.steady_floor))
		row->steady_floor = base->info.steady_floor;
	if (!compare_setting(row, acceptance, ACCEPT_COLD_FLOOR, (double)head->info.cold_floor,
			     (double)base->info.cold_floor))
		row->cold_floor = base->info.cold_floor;
}

/* What the baseline holds a figure of a metric with floors to, into *floor: its declared floor;
 * where it declares none, for a METRIC_RISE metric, its own figure (no rise). Returns false when
 * it holds the figure to nothing (a METRIC_FLOORS metric without a floor). */
static bool baseline_floor(const struct measurement *base, enum metric_id metric, bool cold,
			   double *floor)
{
	*floor = metric_floor(&base->info, metric, cold);
	if (*floor > 0)
		return true;
	if (metric_table[metric].gating != METRIC_RISE || !base->has[metric])
		return false;
	*floor = cold ? (double)base->slopes[metric].cold : base->slopes[metric].per_message;
	return true;
}

/* A figure's optional floor: the head's, or what the baseline held it to where the head loosened
 * that without an acceptance. Where the baseline declares none, a floor is looser only if the
 * baseline held the figure without one: a METRIC_RISE metric, at no rise over its figure, so that
 * a change cannot declare a floor for the system calls it adds. */
static void apply_floor(struct verdict_row *row, const struct acceptance *acceptance,
			enum metric_id metric, bool cold)
{
	double here = metric_floor(&row->head->info, metric, cold), there = 0;
	bool declared = row->baseline != NULL &&
			metric_floor(&row->baseline->info, metric, cold) > 0;

	row->floors[metric][cold] = here;
	if (row->baseline == NULL || !baseline_floor(row->baseline, metric, cold, &there))
		return; /* the baseline holds the figure to nothing: any floor is stricter */
	if (here == 0 && !declared)
		return; /* no floor, as in the baseline: the figure is compared with the baseline's */
	if (!compare_setting(row, acceptance, METRIC_FLOOR_ACCEPTANCE(metric, cold),
			     here == 0 ? INFINITY : here, there))
		row->floors[metric][cold] = declared ? there : 0;
}

/* The settings of the metrics beyond instructions and allocations: the metrics gated on request
 * and the optional floors. Not declaring a floor the baseline declares is raising it without
 * bound. */
static void apply_metric_settings(struct verdict_row *row, const struct acceptance *acceptance)
{
	const struct measurement *head = row->head, *base = row->baseline;
	size_t metric, cold;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		const struct metric *entry = &metric_table[metric];

		if (entry->opt_in && metric_opted_in(metric, &head->info))
			row->opted_in |= 1u << metric;
		if (entry->opt_in && base != NULL &&
		    !compare_setting(row, acceptance, METRIC_KIND(metric, METRIC_KIND_GATE),
				     metric_opted_in(metric, &head->info) ? 0 : 1,
				     metric_opted_in(metric, &base->info) ? 0 : 1))
			row->opted_in |= 1u << metric;
		for (cold = 0; cold < VERDICT_FIGURES && entry->floors; cold++)
			apply_floor(row, acceptance, metric, cold != 0);
	}
}

/* The optional floors in force against the head's figures. */
static void check_metric_floors(struct verdict_row *row)
{
	size_t metric;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		const struct slope *slope = &row->head->slopes[metric];
		const double *floors = row->floors[metric];

		if (!metric_table[metric].floors || !row->head->has[metric])
			continue;
		if (floors[VERDICT_PER_MESSAGE] > 0 && slope->per_message > floors[VERDICT_PER_MESSAGE])
			row->breaches |= BREACH_FLOOR_OVER(metric, false);
		if (floors[VERDICT_COLD] > 0 && (double)slope->cold > floors[VERDICT_COLD])
			row->breaches |= BREACH_FLOOR_OVER(metric, true);
	}
}

/* One figure of a metric compared at a limit against the baseline: breach, acceptance,
 * improvement. `tolerance` is added to the limit: what a figure's own rounding allows. */
static void compare_figure(struct verdict_row *row, const struct acceptance *acceptance,
			   enum metric_id metric, enum verdict_figure figure, double head,
			   double baseline, double tolerance)
{
	int kind = verdict_limit_acceptance(metric, figure);
	uint64_t bit = kind >= 0 ? verdict_metric_breach((unsigned)kind) : 0;
	double limit = verdict_limit(row, metric);

	row->changes[metric][figure] = slope_change_percent(head, baseline);
	row->compared_with[metric][figure] = baseline;
	if (head > baseline * (1.0 + limit / 100.0) + tolerance) {
		const struct acceptance_entry *entry =
			kind >= 0 ? acceptance_find(acceptance, row->name, (unsigned)kind)
				  : NULL;

		row->breaches |= bit;
		if (entry != NULL && head <= entry->value)
			row->accepted[kind] = entry;
	} else if (head < baseline * (1.0 - limit / 100.0) - tolerance) {
		row->improvements |= bit;
	}
}

static double figure_of(const struct measurement *measurement, enum metric_id metric,
			enum verdict_figure figure)
{
	return figure == VERDICT_COLD ? (double)measurement->slopes[metric].cold
				      : measurement->slopes[metric].per_message;
}

/* One figure of a metric compared at its limit. A per_allocation metric (the allocator's
 * instructions) is held to what the baseline's allocations cost, as many as the head makes: a
 * block more or less a message is the floors' to judge, each block's cost is this limit's. Where
 * the baseline allocated nothing and the head does, there is nothing to scale: not compared. */
static void compare_scaled(struct verdict_row *row, const struct acceptance *acceptance,
			   enum metric_id metric, enum verdict_figure figure)
{
	double head = figure_of(row->head, metric, figure);
	double baseline = figure_of(row->baseline, metric, figure);

	if (metric_table[metric].per_allocation) {
		double head_blocks = figure_of(row->head, METRIC_ALLOCATIONS, figure);
		double base_blocks = figure_of(row->baseline, METRIC_ALLOCATIONS, figure);

		if (!row->head->has[METRIC_ALLOCATIONS] || !row->baseline->has[METRIC_ALLOCATIONS]) {
			/* compared as measured */
		} else if (base_blocks > 0) {
			baseline *= head_blocks / base_blocks;
		} else if (head_blocks > 0) {
			row->unscaled |= 1u << (2 * metric + (figure == VERDICT_COLD));
			row->changes[metric][figure] = slope_change_percent(head, baseline);
			row->compared_with[metric][figure] = baseline;
			return;
		}
	}
	compare_figure(row, acceptance, metric, figure, head, baseline, 0);
}

/* A METRIC_RISE metric: each figure without a declared floor against the baseline, where any
 * rise fails. A count per message over N messages is a whole number of events over N: measured
 * at two different N, each figure may be off by one event over its N (a write every 300
 * messages), and only a rise beyond that is one. */
static void compare_rise(struct verdict_row *row, const struct acceptance *acceptance,
			 enum metric_id metric)
{
	const struct measurement *head = row->head, *base = row->baseline;
	double tolerance = head->messages != base->messages
				   ? 1.0 / (double)head->messages + 1.0 / (double)base->messages
				   : 0;

	row->limit_compared |= 1u << metric;
	if (row->floors[metric][VERDICT_PER_MESSAGE] == 0)
		compare_figure(row, acceptance, metric, VERDICT_PER_MESSAGE,
			       head->slopes[metric].per_message, base->slopes[metric].per_message,
			       tolerance);
	else
		row->changes[metric][VERDICT_PER_MESSAGE] = slope_change_percent(
			head->slopes[metric].per_message, base->slopes[metric].per_message);
	row->compared_with[metric][VERDICT_PER_MESSAGE] = base->slopes[metric].per_message;
	if (row->floors[metric][VERDICT_COLD] == 0)
		compare_figure(row, acceptance, metric, VERDICT_COLD, (double)head->slopes[metric].cold,
			       (double)base->slopes[metric].cold, 0);
	else
		row->changes[metric][VERDICT_COLD] = slope_change_percent(
			(double)head->slopes[metric].cold, (double)base->slopes[metric].cold);
	row->compared_with[metric][VERDICT_COLD] = (double)base->slopes[metric].cold;
}

/* Every metric the row compares at a limit, per message and cold, when both sides have it. */
static void compare_at_limit(struct verdict_row *row, const struct acceptance *acceptance)
{
	const struct measurement *head = row->head, *base = row->baseline;
	size_t metric;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		if (!head->has[metric] || !base->has[metric])
			continue;
		if (metric_table[metric].gating == METRIC_RISE) {
			compare_rise(row, acceptance, metric);
			continue;
		}
		if (!verdict_limit_gated(row, metric))
			continue;
		row->limit_compared |= 1u << metric;
		compare_scaled(row, acceptance, metric, VERDICT_PER_MESSAGE);
		compare_scaled(row, acceptance, metric, VERDICT_COLD);
	}
}

/* The program's own instructions per message growing with the messages handled: the slope from
 * N to 2N further above the one from 1 to N than the baseline's, by more than the margin. Three
 * points see it where it shows within N (an O(n) check against every earlier message makes the
 * second slope steeper by its whole growth over N); measured at another N than the baseline's,
 * the head was measured again at the baseline's N unless both are linear within 0.5 %
 * (session_match_messages), so the two never differ by the margin across N. */
static void compare_growth(struct verdict_row *row, const struct acceptance *acceptance)
{
	const struct acceptance_entry *entry;

	row->growth_head = verdict_growth_percent(&row->head->slopes[METRIC_INSTRUCTIONS]);
	row->growth_baseline = verdict_growth_percent(&row->baseline->slopes[METRIC_INSTRUCTIONS]);
	row->growth_compared = true;
	if (row->growth_head <= row->growth_baseline + VERDICT_GROWTH_MARGIN_PERCENT)
		return;
	row->breaches |= BREACH_GROWTH;
	entry = acceptance_find(acceptance, row->name, ACCEPT_GROWTH);
	if (entry != NULL && row->growth_head <= entry->value)
		row->accepted[ACCEPT_GROWTH] = entry;
}

/* The whole process per message. What the region's own change explains is left to the region's
 * verdict (one regression is not two breaches); the rest is work outside the region, a breach
 * when it is above the limit of the whole process's baseline figure. The drains' slope is
 * linear and compares across two N; the exit's instructions are whatever the program does at
 * its end, at most the baseline's grown with the head's N (a teardown that frees every message
 * grows with them, one that closes a file does not): what passes that, per message handled, is
 * work moved to the exit. Nothing the head does switches the comparison off. An acceptance of
 * "process_instructions" names the whole process's figure it allows. */
static void compare_process(struct verdict_row *row, const struct acceptance *acceptance)
{
	const struct measurement *head = row->head, *base = row->baseline;
	double head_messages = (double)head->messages, base_messages = (double)base->messages;
	double exit_allowed = (double)base->process_exit *
			      (head_messages > base_messages ? head_messages / base_messages : 1.0);
	double drains = head->process_slope.per_message - base->process_slope.per_message;
	double outside, region;
	const struct acceptance_entry *entry;

	row->exit_excess = (double)head->process_exit > exit_allowed
				   ? ((double)head->process_exit - exit_allowed) / (2.0 * head_messages)
				   : 0;
	row->process_head = measurement_process_per_message(head);
	row->process_baseline = measurement_process_per_message(base);
	/* The region's whole change: the program's instructions and the allocator's, which the
	 * process figure (callgrind's, of every instruction) holds too. */
	region = head->slopes[METRIC_INSTRUCTIONS].per_message -
		 base->slopes[METRIC_INSTRUCTIONS].per_message;
	if (head->has[METRIC_ALLOCATOR_INSTRUCTIONS] && base->has[METRIC_ALLOCATOR_INSTRUCTIONS])
		region += head->slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message -
			  base->slopes[METRIC_ALLOCATOR_INSTRUCTIONS].per_message;
	outside = drains + row->exit_excess - region;
	row->process_change = slope_change_percent(row->process_head, row->process_baseline);
	row->outside_change = slope_change_percent(row->process_baseline + outside,
						   row->process_baseline);
	if (outside <= row->process_baseline * (row->limit_percent / 100.0))
		return;
	row->breaches |= BREACH_PROCESS_INSTRUCTIONS;
	entry = acceptance_find(acceptance, row->name, ACCEPT_PROCESS_INSTRUCTIONS);
	if (entry != NULL && row->process_head <= entry->value)
		row->accepted[ACCEPT_PROCESS_INSTRUCTIONS] = entry;
}

static void decide_row(struct verdict_row *row, const struct results *baseline,
		       const struct acceptance *acceptance)
{
	size_t metric;

	if (row->head == NULL) {
		row->state = VERDICT_MISSING;
		return;
	}
	if (row->head->failed) {
		row->state = VERDICT_FAILED;
		return;
	}
	row->baseline = baseline ? results_find(baseline, row->name) : NULL;
	apply_settings(row, acceptance);
	apply_metric_settings(row, acceptance);
	check_floors(row);
	check_metric_floors(row);
	if (row->baseline != NULL) {
		compare_at_limit(row, acceptance);
		if (row->head->has[METRIC_INSTRUCTIONS] && row->baseline->has[METRIC_INSTRUCTIONS])
			compare_growth(row, acceptance);
		if (row->head->has_process && row->baseline->has_process)
			compare_process(row, acceptance);
		for (metric = 0; metric < METRIC_COUNT; metric++)
			if (row->head->has[metric] && !row->baseline->has[metric])
				row->lacking |= 1u << metric;
	}
	row->unaccepted = row->breaches;
	for (metric = 0; metric < VERDICT_ACCEPT_KINDS; metric++)
		if (row->accepted[metric] != NULL)
			row->unaccepted &= ~verdict_metric_breach((unsigned)metric);
	if (row->unaccepted != 0)
		row->state = VERDICT_REGRESSED;
	else if (row->breaches != 0)
		row->state = VERDICT_ACCEPTED;
	else if (baseline != NULL && row->baseline == NULL)
		row->state = VERDICT_NEW;
	else if (row->improvements != 0)
		row->state = VERDICT_IMPROVED;
	else
		row->state = VERDICT_OK;
	describe_state(row);
}

/* An entry is in use when a breach of its metric needed it, whether or not it covered the head:
 * one that falls short is not stale, it is too low (the row says so). */
static void mark_used(struct verdict *verdict, const struct verdict_row *row)
{
	size_t i, metric;

	for (metric = 0; metric < VERDICT_ACCEPT_KINDS; metric++) {
		const struct acceptance_entry *entry =
			(row->breaches & verdict_metric_breach((unsigned)metric)) != 0
				? acceptance_find(verdict->acceptance, row->name, (unsigned)metric)
				: NULL;

		for (i = 0; entry != NULL && i < verdict->acceptance->count; i++)
			if (entry == &verdict->acceptance->entries[i])
				verdict->acceptance_used[i] = true;
	}
}

int verdict_decide(struct verdict *verdict, const struct measurement *head, size_t head_count,
		   const struct results *baseline, const struct acceptance *acceptance,
		   bool missing_counts, struct gate_error *err)
{
	bool failed = false, regressed = false;
	size_t i;

	*verdict = (struct verdict)VERDICT_INIT;
	verdict->acceptance = acceptance;
	verdict->compared = baseline != NULL;
	verdict->baseline_messages = baseline ? baseline->messages : 0;
	verdict->acceptance_used = calloc(acceptance ? acceptance->count + 1 : 1, sizeof(bool));
	if (verdict->acceptance_used == NULL ||
	    collect_rows(verdict, head, head_count, baseline, missing_counts) != 0) {
		verdict_release(verdict);
		return gate_error_oom(err);
	}
	qsort(verdict->rows, verdict->row_count, sizeof(*verdict->rows), compare_rows);
	for (i = 0; i < verdict->row_count; i++) {
		struct verdict_row *row = &verdict->rows[i];

		decide_row(row, baseline, acceptance);
		mark_used(verdict, row);
		if (row->baseline != NULL && row->baseline->messages != row->head->messages)
			verdict->messages_differ = true;
		failed |= row->state == VERDICT_FAILED || row->state == VERDICT_MISSING;
		/* A looser setting fails whether or not the scenario is gated. */
		regressed |= row->state == VERDICT_REGRESSED &&
			     (row->gated || (row->unaccepted & BREACH_SETTINGS) != 0);
	}
	verdict->exit_code = failed ? GATE_EXIT_MEASUREMENT
				    : regressed ? GATE_EXIT_REGRESSION : GATE_EXIT_PASS;
	return 0;
}

/* results.json's name of each breach bit that is not a metric's, by bit; a metric's follow from
 * its key: "KEY" and "cold_KEY" above the limit (listed first), "steady_KEY" and "cold_KEY" above
 * a floor, "steady_KEY_floor_raised" and "cold_KEY_floor_raised", "KEY_ungated". */
static const char *const breach_names[BREACH_METRICS_FIRST] = {
	"ungated", "limit_percent_raised", "process_instructions", "linearity_percent_raised",
	"allocator_limit_percent_raised", "growth",
};

/* The metrics' breaches at one offset of their bits (and the next, for their cold figure when
 * `pair`), by name into `array`. */
static int add_metric_breach_names(cJSON *array, uint64_t breaches, int offset, bool pair,
				   const char *const prefix[2], const char *suffix)
{
	size_t metric;
	int cold;
	char name[SCENARIO_KEY_SIZE + 32];

	for (metric = 0; metric < METRIC_COUNT; metric++)
		for (cold = 0; cold <= (pair ? 1 : 0); cold++) {
			if ((breaches & BREACH_METRIC_BIT(metric, offset + cold)) == 0)
				continue;
			snprintf(name, sizeof(name), "%s%s%s", prefix[cold], metric_table[metric].key,
				 suffix);
			if (!cJSON_AddItemToArray(array, cJSON_CreateString(name)))
				return -1;
		}
	return 0;
}

/* Every breach of the mask by its results.json name into `array`. */
static int add_breach_names(cJSON *array, uint64_t breaches)
{
	static const char *const figure[2] = { "", "cold_" }, *const floor[2] = { "steady_", "cold_" };
	size_t bit;

	if (add_metric_breach_names(array, breaches, 0, true, figure, "") != 0 ||
	    add_metric_breach_names(array, breaches, 2, true, floor, "") != 0)
		return -1;
	for (bit = 0; bit < BREACH_METRICS_FIRST; bit++)
		if ((breaches & ((uint64_t)1 << bit)) != 0 &&
		    !cJSON_AddItemToArray(array, cJSON_CreateString(breach_names[bit])))
			return -1;
	return add_metric_breach_names(array, breaches, 4, true, floor, "_floor_raised") != 0 ||
			       add_metric_breach_names(array, breaches, 6, false, figure, "_ungated") != 0
		       ? -1
		       : 0;
}

static cJSON *figures(double head, const struct measurement *baseline, double baseline_value,
		      double change)
{
	cJSON *object = cJSON_CreateObject();

	if (cJSON_AddNumberToObject(object, "head", head) == NULL ||
	    (baseline != NULL && (cJSON_AddNumberToObject(object, "baseline", baseline_value) == NULL ||
				  cJSON_AddNumberToObject(object, "change_percent", change) == NULL))) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

/* A metric's figures, with the limit they are held to. */
static cJSON *limit_figures(double head, const struct measurement *baseline, double baseline_value,
			    double change, double limit)
{
	cJSON *object = figures(head, baseline, baseline_value, change);

	if (object != NULL && cJSON_AddNumberToObject(object, "limit_percent", limit) == NULL) {
		cJSON_Delete(object);
		return NULL;
	}
	return object;
}

/* The figures of the metrics compared at a limit, as "KEY" and "cold_KEY": a METRIC_LIMIT or
 * METRIC_RISE metric always (the baseline's figure as compared and the change when compared: a
 * per_allocation metric's for as many allocations as the head's), an opt-in one when
 * compared. */
static int add_limit_figures(cJSON *item, const struct verdict_row *row)
{
	const struct measurement *head = row->head;
	size_t metric;

	for (metric = 0; metric < METRIC_COUNT; metric++) {
		bool compared = (row->limit_compared & (1u << metric)) != 0;
		const struct measurement *base = compared ? row->baseline : NULL;
		char cold_key[64];

		if (!compared && ((metric_table[metric].gating != METRIC_LIMIT &&
				   metric_table[metric].gating != METRIC_RISE) ||
				  !head->has[metric]))
			continue;
		metric_figure_key(cold_key, sizeof(cold_key), metric, true);
		if (!cJSON_AddItemToObject(item, metric_table[metric].key,
					   limit_figures(head->slopes[metric].per_message, base,
							 row->compared_with[metric][VERDICT_PER_MESSAGE],
							 row->changes[metric][VERDICT_PER_MESSAGE],
							 verdict_limit(row, metric))) ||
		    !cJSON_AddItemToObject(item, cold_key,
					   limit_figures((double)head->slopes[metric].cold, base,
							 row->compared_with[metric][VERDICT_COLD],
							 row->changes[metric][VERDICT_COLD],
							 verdict_limit(row, metric))))
			return -1;
	}
	return 0;
}

static cJSON *wall_to_json(const struct verdict_wall *wall)
{
	cJSON *object = cJSON_CreateObject();

	if (object == NULL)
		return NULL;
	if (!wall->timed) {
		if (cJSON_AddBoolToObject(object, "timed", false) == NULL ||
		    cJSON_AddStringToObject(object, "why_not", wall->why_not) == NULL)
			goto failed;
		return object;
	}
	if (cJSON_AddBoolToObject(object, "timed", true) == NULL ||
	    cJSON_AddNumberToObject(object, "messages", (double)wall->messages) == NULL ||
	    cJSON_AddNumberToObject(object, "rounds", wall->rounds) == NULL ||
	    cJSON_AddNumberToObject(object, "head_seconds", wall->head_seconds) == NULL ||
	    cJSON_AddNumberToObject(object, "baseline_seconds", wall->baseline_seconds) == NULL ||
	    cJSON_AddNumberToObject(object, "change_percent", wall->change_percent) == NULL ||
	    cJSON_AddNumberToObject(object, "head_fastest_seconds", wall->head_fastest) == NULL ||
	    cJSON_AddNumberToObject(object, "head_slowest_seconds", wall->head_slowest) == NULL ||
	    cJSON_AddNumberToObject(object, "baseline_fastest_seconds", wall->baseline_fastest) == NULL ||
	    cJSON_AddNumberToObject(object, "baseline_slowest_seconds", wall->baseline_slowest) == NULL ||
	    cJSON_AddStringToObject(object, "conclusion", verdict_wall_conclusion(wall)) == NULL)
		goto failed;
	return object;
failed:
	cJSON_Delete(object);
	return NULL;
}

static int add_row_figures(cJSON *item, const struct verdict_row *row)
{
	const struct measurement *head = row->head, *base = row->baseline;
	cJSON *breaches = cJSON_AddArrayToObject(item, "breaches");
	cJSON *accepted = cJSON_AddArrayToObject(item, "accepted");
	size_t bit;

	if (breaches == NULL || accepted == NULL ||
	    cJSON_AddNumberToObject(item, "limit_percent", row->limit_percent) == NULL ||
	    cJSON_AddNumberToObject(item, "allocator_limit_percent",
				    row->allocator_limit_percent) == NULL ||
	    add_limit_figures(item, row) != 0)
		return -1;
	if (cJSON_AddBoolToObject(item, "gated", row->gated) == NULL)
		return -1;
	/* Only when compared: the figure alone is in costgate.process_instructions, and it moves by
	 * a few instructions between runs, which a document without a baseline need not show. */
	if (head->has_process && base != NULL && base->has_process &&
	    !cJSON_AddItemToObject(item, "process_instructions",
				   figures(row->process_head, base, row->process_baseline,
					   row->process_change)))
		return -1;
	if (row->growth_compared &&
	    !cJSON_AddItemToObject(item, "growth_percent",
				   figures(row->growth_head, base, row->growth_baseline,
					   row->growth_head - row->growth_baseline)))
		return -1;
	if (add_breach_names(breaches, row->breaches) != 0)
		return -1;
	/* A regressed scenario's page draws its call tree against the baseline's (flame.h). */
	if (row->state == VERDICT_REGRESSED && base != NULL && base->frame_count > 0 &&
	    !cJSON_AddItemToObject(item, "baseline_frames",
				   json_record_array(&results_frame_record, base->frames,
						     sizeof(*base->frames), base->frame_count)))
		return -1;
	for (bit = 0; bit < VERDICT_ACCEPT_KINDS; bit++) {
		const struct acceptance_entry *entry = row->accepted[bit];
		cJSON *object;

		if (entry == NULL)
			continue;
		object = cJSON_CreateObject();
		if (!cJSON_AddItemToArray(accepted, object) ||
		    cJSON_AddStringToObject(object, "metric", acceptance_metric_name(metric_acceptance_figures(), entry->metric)) == NULL ||
		    cJSON_AddNumberToObject(object, "value", entry->value) == NULL ||
		    cJSON_AddStringToObject(object, "reason", entry->reason) == NULL)
			return -1;
	}
	if (row->steady_floor_high &&
	    cJSON_AddNumberToObject(item, "lower_steady_floor_to", head->slopes[METRIC_ALLOCATIONS].per_message) == NULL)
		return -1;
	if (row->cold_floor_high &&
	    cJSON_AddNumberToObject(item, "lower_cold_floor_to", (double)head->slopes[METRIC_ALLOCATIONS].cold) == NULL)
		return -1;
	if (row->lacking != 0) {
		cJSON *lacking = cJSON_AddArrayToObject(item, "baseline_lacks");
		size_t metric;

		for (metric = 0; lacking != NULL && metric < METRIC_COUNT; metric++)
			if ((row->lacking & (1u << metric)) &&
			    !cJSON_AddItemToArray(lacking, cJSON_CreateString(metric_table[metric].key)))
				return -1;
		if (lacking == NULL)
			return -1;
	}
	if (row->attribution != NULL &&
	    !cJSON_AddItemToObject(item, "attribution", attribution_to_json(row->attribution)))
		return -1;
	if (row->wall != NULL && !cJSON_AddItemToObject(item, "wall_clock", wall_to_json(row->wall)))
		return -1;
	return 0;
}

static cJSON *stale_array(const struct verdict *verdict)
{
	cJSON *array = cJSON_CreateArray();
	size_t i;

	for (i = 0; array != NULL && verdict->acceptance && i < verdict->acceptance->count; i++) {
		const struct acceptance_entry *entry = &verdict->acceptance->entries[i];
		cJSON *object;

		if (verdict->acceptance_used[i])
			continue;
		object = cJSON_CreateObject();
		if (!cJSON_AddItemToArray(array, object) ||
		    cJSON_AddStringToObject(object, "scenario", entry->scenario) == NULL ||
		    cJSON_AddStringToObject(object, "metric", acceptance_metric_name(metric_acceptance_figures(), entry->metric)) == NULL ||
		    cJSON_AddNumberToObject(object, "value", entry->value) == NULL) {
			cJSON_Delete(array);
			return NULL;
		}
	}
	return array;
}

cJSON *verdict_to_json(const struct verdict *verdict)
{
	cJSON *object = cJSON_CreateObject();
	cJSON *rows = cJSON_AddArrayToObject(object, "rows");
	char summary[512];
	size_t i;

	verdict_summary(verdict, summary, sizeof(summary));
	if (rows == NULL || cJSON_AddNumberToObject(object, "exit_code", verdict->exit_code) == NULL ||
	    cJSON_AddStringToObject(object, "summary", summary) == NULL ||
	    cJSON_AddBoolToObject(object, "compared", verdict->compared) == NULL ||
	    (verdict->baseline_source != NULL &&
	     cJSON_AddStringToObject(object, "baseline", verdict->baseline_source) == NULL) ||
	    cJSON_AddBoolToObject(object, "remeasured", verdict->remeasured) == NULL ||
	    cJSON_AddBoolToObject(object, "messages_differ", verdict->messages_differ) == NULL ||
	    (verdict->messages_first != 0 &&
	     cJSON_AddNumberToObject(object, "messages_first", (double)verdict->messages_first) == NULL) ||
	    !cJSON_AddItemToObject(object, "stale_acceptances", stale_array(verdict)))
		goto failed;
	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];
		cJSON *item = cJSON_CreateObject();

		if (!cJSON_AddItemToArray(rows, item) ||
		    cJSON_AddStringToObject(item, "name", row->name) == NULL ||
		    cJSON_AddStringToObject(item, "state", verdict_state_name(row->state)) == NULL)
			goto failed;
		if (row->head != NULL && row->head->failed &&
		    cJSON_AddStringToObject(item, "failure", row->head->failure) == NULL)
			goto failed;
		if (row->head != NULL && !row->head->failed && add_row_figures(item, row) != 0)
			goto failed;
	}
	return object;
failed:
	cJSON_Delete(object);
	return NULL;
}

/* Appends ", name" for every row in `state` to text, returns how many. Regressions are listed
 * apart: those that fail (state VERDICT_REGRESSED) and those not gated (VERDICT_STATES). */
#define VERDICT_REGRESSED_UNGATED (VERDICT_FAILED + 1)
static size_t list_rows(const struct verdict *verdict, int state, char *names, size_t names_size)
{
	size_t count = 0, used = strlen(names), i;

	for (i = 0; i < verdict->row_count; i++) {
		const struct verdict_row *row = &verdict->rows[i];
		bool ungated = regressed_ungated(row);

		if (state == VERDICT_REGRESSED_UNGATED ? !ungated
						       : (int)row->state != state || ungated)
			continue;
		if (used < names_size)
			used += (size_t)snprintf(names + used, names_size - used, "%s%s",
						 count ? ", " : "", verdict->rows[i].name);
		count++;
	}
	return count;
}

/* Appends "; <count> <label> (<names>)" for the rows in `state`. */
static void append_part(const struct verdict *verdict, int state, const char *label,
			char *text, size_t text_size)
{
	char names[300] = "";
	size_t count = list_rows(verdict, state, names, sizeof(names)), used = strlen(text);

	if (count > 0 && used < text_size)
		snprintf(text + used, text_size - used, "%s%zu %s (%s)", used > 6 ? ", " : "", count,
			 label, names);
}

void verdict_summary(const struct verdict *verdict, char *text, size_t text_size)
{
	size_t ungated = 0, i;

	for (i = 0; i < verdict->row_count; i++)
		ungated += regressed_ungated(&verdict->rows[i]);
	if (verdict->exit_code == GATE_EXIT_PASS && ungated == 0) {
		snprintf(text, text_size, "pass: %zu scenario%s within %s limits", verdict->row_count,
			 verdict->row_count == 1 ? "" : "s", verdict->row_count == 1 ? "its" : "their");
		return;
	}
	if (verdict->exit_code == GATE_EXIT_PASS) {
		/* Passing, but not "every scenario within its limits": say which are not. */
		snprintf(text, text_size, "pass: %zu of %zu scenario%s within %s limits",
			 verdict->row_count - ungated, verdict->row_count,
			 verdict->row_count == 1 ? "" : "s", verdict->row_count == 1 ? "its" : "their");
		append_part(verdict, VERDICT_REGRESSED_UNGATED, "regressed, not gated", text, text_size);
		return;
	}
	snprintf(text, text_size, "fail: ");
	append_part(verdict, VERDICT_REGRESSED, "regressed", text, text_size);
	append_part(verdict, VERDICT_FAILED, "failed to measure", text, text_size);
	append_part(verdict, VERDICT_MISSING, "missing", text, text_size);
	append_part(verdict, VERDICT_REGRESSED_UNGATED, "regressed, not gated", text, text_size);
}

bool verdict_row_instructions_up(const struct verdict_row *row)
{
	return row->head != NULL && row->baseline != NULL && !row->head->failed &&
	       (row->breaches & BREACH_LIMIT(METRIC_INSTRUCTIONS, false)) != 0;
}

const char *verdict_wall_conclusion(const struct verdict_wall *wall)
{
	if (wall->head_slowest < wall->baseline_fastest)
		return "time down";
	if (wall->head_fastest > wall->baseline_slowest)
		return "time up";
	return "time unchanged (the rounds overlap)";
}

int verdict_explain(struct verdict *verdict, bool every_row, struct gate_error *err)
{
	size_t i;

	for (i = 0; i < verdict->row_count; i++) {
		struct verdict_row *row = &verdict->rows[i];

		if (row->head == NULL || row->head->failed || (!every_row && row->breaches == 0))
			continue;
		row->attribution = calloc(1, sizeof(*row->attribution));
		if (row->attribution == NULL ||
		    attribution_compute(row->attribution, row->head, row->baseline) != 0)
			return gate_error_oom(err);
	}
	return 0;
}

static void verdict_row_release(struct verdict_row *row)
{
	free(row->attribution);
	free(row->wall);
}

void verdict_release(struct verdict *verdict)
{
	if (verdict == NULL)
		return;
	ARRAY_RELEASE(verdict->rows, verdict->row_count, verdict_row_release);
	free(verdict->acceptance_used);
	*verdict = (struct verdict)VERDICT_INIT;
}
