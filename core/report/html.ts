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
  body.push(`<p class="muted">Report generated ${esc(input.generatedAt.toISOString())} by SignalR Live Bench${runs[0] ? ` ${esc(runs[0].toolVersion)}` : ''}. ${counted} is measured from each message's planned send time.</p>`);
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

const STYLE = `
:root { color-scheme: light dark; --border: #dee2e6; --good: #237032; --bad: #c92a2a; --warn: #a85600; }
@media (prefers-color-scheme: dark) { :root { --border: #373a40; --good: #69db7c; --bad: #ff8787; --warn: #ffd43b; } body { background: #141517; color: #e9ecef; } }
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; line-height: 1.4; }
section { border-top: 1px solid var(--border); padding-top: 1rem; margin-top: 1.5rem; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.25rem 0.75rem 0.25rem 0; vertical-align: top; border-bottom: 1px solid var(--border); }
.compare { font-size: 0.82rem; }
/* A capacity search's steps: figures whole, words wrapped, so the table fits the page's width. */
.steps { font-size: 0.9rem; }
.steps td, .steps th { font-variant-numeric: tabular-nums; white-space: nowrap; }
.steps td.wrap { white-space: normal; min-width: 9rem; }
.steps .why { display: block; font-size: 0.85em; opacity: 0.8; }
.scroll:focus-visible { outline: 2px solid currentColor; outline-offset: 2px; }
.compare td, .compare th { font-variant-numeric: tabular-nums; white-space: nowrap; padding-right: 0.5rem; }
/* Headers wrap between words, never inside one, so every column fits beside the others at 1280 px. */
.compare tr:first-child th { white-space: normal; overflow-wrap: normal; word-break: normal; }
/* The run's name wraps too: the figures beside it stay whole. */
.compare tr + tr th { white-space: normal; min-width: 8rem; }
.facts td { overflow-wrap: anywhere; }
.win { font-weight: 700; color: var(--good); }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; margin-right: 0.4rem; vertical-align: -1px; }
.scroll { overflow-x: auto; }
.muted { opacity: 0.7; }
.verdict { font-weight: 600; font-size: 1.1rem; }
.evidence { margin: 0.25rem 0; padding-left: 1.2rem; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
.good { color: var(--good); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
/* A chart narrower than its drawing (a phone) is scaled to fit, never a sideways scroll box. */
figure { margin: 0.5rem 0; max-width: 100%; }
figure svg { max-width: 100%; height: auto; }
.errors { color: var(--bad); }
.diagnosis { border-left: 4px solid var(--border); padding-left: 0.75rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
.diagnosis.bad-edge { border-left-color: var(--bad); } .diagnosis.warn-edge { border-left-color: var(--warn); }
.diagnosis p, .diagnosis h3 { margin: 0.25rem 0; }
.diagnosis .why { font-size: 1rem; }
.diagnosis .sentence { font-weight: 600; }
.diagnosis ul { margin: 0.15rem 0; padding-left: 1.2rem; font-size: 0.9rem; }
.cause { display: block; font-size: 0.8rem; font-weight: 600; }
`;
