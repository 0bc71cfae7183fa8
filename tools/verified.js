// What the action's verify mode writes to GitHub (action.yml requires it from its github-script
// steps): the check run's name and title, and the pull request's comment with its warning about
// changed files that run in the check job. Everything read here is untrusted text: the pull
// request number and the file names come from the check's artifact and the head's commits.
'use strict';

const CHECK_NAME = 'costgate / verified';
const MARKER = '<!-- costgate -->';

const MEANINGS = {
  0: 'every gated scenario is within its limits',
  1: 'a regression: a limit or a floor was exceeded',
  2: 'an input error (a malformed baseline or acceptance file)',
  3: 'a measurement failure, or results that disagree with their raw files',
  4: 'no comparable baseline',
};

// Files whose change alters what the check job built, ran or measured, not only the code it
// measured: build files of any build system, scripts, workflows and the action, the harness,
// gate and its CMake support, and the baselines and acceptances (an accepted regression passes).
const SENSITIVE = [
  /^baselines\//,
  /(^|\/)CMakeLists\.txt$/, /\.cmake(\.in)?$/, /(^|\/)CMakePresets\.json$/,
  /(^|\/)(GNUmakefile|[Mm]akefile)(\.(am|in))?$/, /\.mk$/,
  /(^|\/)meson\.build$/, /(^|\/)(meson_options\.txt|meson\.options)$/,
  /(^|\/)configure(\.ac|\.in)?$/, /\.m4$/,
  /\.(sh|bash|py|pl)$/, /^(tools|scripts|\.ci)\//,
  /^\.github\//, /(^|\/)action\.ya?ml$/,
  /(^|\/)(costgate_)?(harness|queue|native|alloc_counter)(_[a-z]+)?\.[ch]$/, /(^|\/)costgate\//,
  /^(gate|cmake)\//,
];

function sensitiveFiles(files) {
  return files.filter((file) => file !== '' && SENSITIVE.some((pattern) => pattern.test(file)));
}

function pullNumber(text) {
  const trimmed = String(text).trim();
  return /^[0-9]{1,10}$/.test(trimmed) ? Number(trimmed) : null;
}

function exitCode(text) {
  return /^[0-9]$/.test(text || '') ? Number(text) : 3;
}

function meaning(code) {
  return MEANINGS[code] || 'unknown';
}

function title(code, verdict) {
  const line = String(verdict || '').replace(/[\r\n]/g, ' ').slice(0, 200);
  return line !== '' ? `exit ${code}: ${line}` : `exit ${code}: ${meaning(code)}`;
}

function cut(text, limit) {
  return text.length > limit ? `${text.slice(0, limit)}\n\n(cut here: the whole summary is on the run page)` : text;
}

// A file name as inline code: no backquote or line break can end it.
function codeSpan(text) {
  return '`' + text.replace(/[`\r\n]/g, '?').slice(0, 200) + '`';
}

function warning(changed) {
  const files = sensitiveFiles(changed);
  if (files.length === 0) return '';
  const listed = files.slice(0, 20).map(codeSpan).join(', ');
  return '> [!WARNING]\n> **This pull request changes how its code is built, run or measured** ' +
    `(${listed}${files.length > 20 ? `, and ${files.length - 20} more` : ''}). The check job ran ` +
    'these files as the pull request has them; "costgate / verified" was decided by gate built ' +
    'from trusted code, from the raw files the check uploaded. Review these files first.\n\n';
}

function comment({ code, changed, summary, checkUrl, verifyUrl }) {
  const text = summary !== '' ? summary : 'costgate: no verified summary; see the run.';
  return `${MARKER}\n${warning(changed)}**${CHECK_NAME}**: exit ${code}, ${meaning(code)}.\n\n` +
    `${cut(text, 60000)}\n\n[The check's run](${checkUrl}) · [The verification](${verifyUrl})`;
}

module.exports = {
  CHECK_NAME, MARKER, sensitiveFiles, pullNumber, exitCode, title, cut, warning, comment,
};
