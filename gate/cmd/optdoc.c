/* The manual page and the bash completion, written from the option tables. The help text of an
 * option is one paragraph in the page (its "\n" line breaks are --help's layout, not the text's);
 * the exit codes keep their lines. */
#include "optdoc.h"

#include <string.h>

/* The help text `spec` gives `opt`: its own note when it has one, else the option's. */
static const char *help_of(const struct command_spec *spec, const struct opt *opt)
{
	size_t i;

	for (i = 0; spec->notes != NULL && spec->notes[i].opt != NULL; i++)
		if (spec->notes[i].opt == opt)
			return spec->notes[i].help;
	return opt->help;
}

/* Text for roff: backslashes and dashes escaped, line breaks as spaces (or kept, `lines`), and a
 * line that would start with a control character guarded. */
static void roff(FILE *out, const char *text, bool lines)
{
	bool line_start = true;

	for (; *text != '\0'; text++) {
		if (line_start && (*text == '.' || *text == '\''))
			fputs("\\&", out);
		line_start = false;
		if (*text == '\\')
			fputs("\\e", out);
		else if (*text == '-')
			fputs("\\-", out);
		else if (*text == '\n' && !lines)
			fputc(' ', out);
		else {
			fputc(*text, out);
			line_start = *text == '\n';
		}
	}
}

static void man_options(FILE *out, const struct command_spec *spec)
{
	size_t i;

	for (i = 0; spec->opts[i] != NULL; i++) {
		const struct opt *opt = spec->opts[i];

		fputs(".TP\n", out);
		if (opt->letter)
			fprintf(out, "\\fB\\-%c\\fR, ", opt->letter);
		fputs("\\fB\\-\\-", out);
		roff(out, opt->name, false);
		fputs("\\fR", out);
		if (opt->argument != NULL) {
			fputs(" \\fI", out);
			roff(out, opt->argument, false);
			fputs("\\fR", out);
		}
		fputc('\n', out);
		roff(out, help_of(spec, opt), false);
		fputc('\n', out);
	}
}

/* "usage: gate time [options]" as the page's synopsis line. */
static void man_synopsis(FILE *out, const char *synopsis)
{
	if (strncmp(synopsis, "usage: ", 7) == 0)
		synopsis += 7;
	fputs(".PP\n.B ", out);
	roff(out, synopsis, false);
	fputc('\n', out);
}

void optdoc_man(FILE *out, const char *version, const struct command_spec *gate,
		const struct optdoc_command *commands, size_t count)
{
	size_t i;

	fputs(".TH GATE 1 \"\" \"costgate ", out);
	roff(out, version, false);
	fputs("\" \"User Commands\"\n.SH NAME\n"
	      "gate \\- fail a pull request that makes a C library's hot path cost more instructions "
	      "or allocations\n.SH SYNOPSIS\n", out);
	man_synopsis(out, gate->synopsis);
	for (i = 0; i < count; i++)
		man_synopsis(out, commands[i].spec->synopsis);
	fputs(".SH DESCRIPTION\n", out);
	roff(out, gate->about, false);
	fputs("\n.PP\nIt runs from the root of the project's repository, on the scenarios its build "
	      "listed in \\fIBUILD_DIR\\fR/scenarios/manifest.txt.\n.SH OPTIONS\n", out);
	man_options(out, gate);
	fputs(".SH COMMANDS\n", out);
	for (i = 0; i < count; i++) {
		fputs(".SS gate ", out);
		roff(out, commands[i].name, false);
		fputc('\n', out);
		roff(out, commands[i].about, false);
		fputs(".\n", out);
		if (commands[i].spec == gate) {
			/* gate check is gate itself: its options are those above. */
			fputs(".PP\nIts options are gate's (\\fBOPTIONS\\fR above).\n", out);
			continue;
		}
		man_synopsis(out, commands[i].spec->synopsis);
		if (commands[i].spec->about != NULL) {
			fputs(".PP\n", out);
			roff(out, commands[i].spec->about, false);
			fputc('\n', out);
		}
		man_options(out, commands[i].spec);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B GITHUB_STEP_SUMMARY\nWhen set, the Markdown report is "
	      "appended to this file as well.\n.TP\n.B GITHUB_ACTIONS\nWhen \\fBtrue\\fR, each breach "
	      "is also a GitHub \\fB::error\\fR annotation.\n.TP\n.B PATH\nWhere valgrind, git and "
	      "the other programs gate runs are looked for. The measured runs themselves get "
	      "\\fBPATH=/usr/bin:/bin\\fR and nothing else of the environment but what they need.\n"
	      ".TP\n.B TMPDIR\nWhere the temporary worktree of a re-measure and the runs' debug view go "
	      "(default /tmp).\n", out);
	fputs(".SH EXIT STATUS\n.nf\n", out);
	roff(out, gate->epilogue != NULL ? gate->epilogue : "", true);
	fputs(".fi\n.SH SEE ALSO\n.BR valgrind (1),\n.BR callgrind_annotate (1),\n"
	      ".BR git (1).\nThe documentation in docs/ of costgate's source: adopting, GitHub Actions, "
	      "reliability, the threat model.\n", out);
}

enum value_kind { VALUE_NONE, VALUE_FILE, VALUE_DIR, VALUE_SCENARIO, VALUE_OTHER };

/* What an option's value is, for the completion: by its argument's name in --help. */
static enum value_kind value_kind(const struct opt *opt)
{
	if (opt->argument == NULL)
		return VALUE_NONE;
	if (strcmp(opt->argument, "FILE") == 0 || strcmp(opt->argument, "F") == 0)
		return VALUE_FILE;
	if (strcmp(opt->argument, "DIR") == 0)
		return VALUE_DIR;
	if (strcmp(opt->name, "scenario") == 0)
		return VALUE_SCENARIO;
	return VALUE_OTHER;
}

/* One command's case in the completion: its options, and those whose value is a file, a
 * directory, a scenario's name, or another word (nothing is offered for those). */
static void bash_case(FILE *out, const char *name, const struct command_spec *spec)
{
	static const char *const kinds[] = { "options", "files", "dirs", "scenarios", "values" };
	size_t kind, i;

	fprintf(out, "  %s)\n", name);
	for (kind = 0; kind < sizeof(kinds) / sizeof(kinds[0]); kind++) {
		fprintf(out, "    %s=' ", kinds[kind]);
		for (i = 0; spec->opts[i] != NULL; i++) {
			const struct opt *opt = spec->opts[i];

			if (kind > 0 && value_kind(opt) != (enum value_kind)kind)
				continue;
			fprintf(out, "--%s ", opt->name);
			if (opt->letter)
				fprintf(out, "-%c ", opt->letter);
		}
		fputs("'\n", out);
	}
	fputs("    ;;\n", out);
}

void optdoc_bash(FILE *out, const struct command_spec *gate, const struct optdoc_command *commands,
		 size_t count)
{
	size_t i;

	fputs("# bash completion for gate(1), written from gate's option table when gate was built.\n"
	      "\n"
	      "# The scenarios the build listed (--build-dir DIR earlier on the line, else build).\n"
	      "_gate_scenarios() {\n"
	      "  local build=build i\n"
	      "  for ((i = 1; i < COMP_CWORD - 1; i++)); do\n"
	      "    [ \"${COMP_WORDS[i]}\" = --build-dir ] && build=${COMP_WORDS[i + 1]}\n"
	      "  done\n"
	      "  [ -r \"$build/scenarios/manifest.txt\" ] &&\n"
	      "    sed -n 's/^scenario \\([a-z0-9_]*\\) .*/\\1/p' \"$build/scenarios/manifest.txt\"\n"
	      "}\n"
	      "\n"
	      "_gate() {\n"
	      "  local cur=${COMP_WORDS[COMP_CWORD]} prev='' command=gate\n"
	      "  local options files dirs scenarios values subcommands='", out);
	for (i = 0; i < count; i++)
		fprintf(out, "%s%s", i ? " " : "", commands[i].name);
	fputs("'\n"
	      "  [ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "  if [ \"$COMP_CWORD\" -gt 1 ] && [[ \" $subcommands \" == *\" ${COMP_WORDS[1]} \"* ]]; then\n"
	      "    command=${COMP_WORDS[1]}\n"
	      "  fi\n"
	      "  case $command in\n", out);
	bash_case(out, "gate", gate);
	for (i = 0; i < count; i++)
		bash_case(out, commands[i].name, commands[i].spec);
	fputs("  esac\n"
	      "  COMPREPLY=()\n"
	      "  if [[ $files == *\" $prev \"* ]]; then\n"
	      "    compopt -o filenames 2>/dev/null\n"
	      "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
	      "  elif [[ $dirs == *\" $prev \"* ]]; then\n"
	      "    compopt -o filenames 2>/dev/null\n"
	      "    mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
	      "  elif [[ $scenarios == *\" $prev \"* ]] ||\n"
	      "    { [ \"$command\" = profile ] && [ \"$COMP_CWORD\" -eq 2 ] && [[ $cur != -* ]]; }; then\n"
	      "    mapfile -t COMPREPLY < <(compgen -W \"$(_gate_scenarios)\" -- \"$cur\")\n"
	      "  elif [[ $values == *\" $prev \"* ]]; then\n"
	      "    return 0\n"
	      "  elif [[ $cur == -* ]]; then\n"
	      "    mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\")\n"
	      "  elif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "    mapfile -t COMPREPLY < <(compgen -W \"$subcommands\" -- \"$cur\")\n"
	      "  elif [ \"$command\" != gate ]; then\n"
	      "    compopt -o filenames 2>/dev/null\n"
	      "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
	      "  fi\n"
	      "  return 0\n"
	      "}\n"
	      "complete -F _gate gate\n", out);
}
