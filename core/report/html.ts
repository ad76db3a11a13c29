/**
 * A self-contained HTML report of one run or of runs side by side: one file, no scripts, no
 * external resources, so it opens offline and can be mailed to people who never run the tool.
 * Charts are inline SVG; the tables, verdicts and configurations are plain HTML. Pure.
 */
import { comparisonVerdict } from '../compare/index.ts';
import { escapeXml as esc, runLabels } from '../charts/index.ts';
import { comparisonVerdictHtml, sideBySideHtml } from './comparison-report.ts';
import type { KeptRun } from '../history/index.ts';
import { runSection } from './run-report.ts';
/** The report's stylesheet, as text inlined in its <style> (a report is one file). */
import STYLE from './report.css?raw';
import { REPORT_WORDS as W } from './words.ts';

export interface ReportInput {
  title: string;
  runs: readonly KeptRun[];
  generatedAt: Date;
  /** HTML sections shown before the runs, e.g. a capacity search's (core/capacity/capacity-export.ts). */
  sections?: readonly string[];
}

export function reportHtml(input: ReportInput): string {
  const { runs } = input;
  const verdict = runs.length > 1 ? comparisonVerdict(runs.map((run, i) => ({ label: runLabels(runs)[i]!, result: run.result }))) : null;
  const body = [
    `<h1>${esc(input.title)}</h1>`,
    // The answer first: which combination is best, and why the others are not.
    ...(verdict?.sentence ? [comparisonVerdictHtml(verdict, runLabels(runs))] : []),
  ];
  body.push(...(input.sections ?? []));
  if (runs.length === 0 && !input.sections?.length) body.push('<p>No runs were chosen for this report.</p>');
  if (runs.length > 1) body.push(sideBySideHtml(runs));
  for (const run of runs) body.push(runSection(run, runs.length === 1 && run.name === input.title));
  // Who made it and when, after the answer: the report opens with its verdict, as the page does.
  const counted = runs.length === 0 ? 'Latency' : `${runs.length === 1 ? 'One run' : `${runs.length} runs`}; latency`;
  body.push(`<p class="muted">${W.generated({ at: esc(input.generatedAt.toISOString()), version: runs[0] ? ` ${esc(runs[0].toolVersion)}` : '', counted })}</p>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}
