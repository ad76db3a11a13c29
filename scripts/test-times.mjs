/**
 * What each test file cost, read from Vitest's JSON report (test-results/vitest.json by default):
 * one line per file, slowest first, with its seconds, its tests and its Vitest project, then each
 * project's totals and the run's wall time. `npm test` prints it after Vitest, passed or failed,
 * so the file to make faster is the one at the top.
 *
 *   node scripts/test-times.mjs [report.json] [--top N]
 *
 * A file's seconds are its own run (from its first hook to its last test), without the worker's
 * start-up and imports; files run side by side, so the sum of a project's seconds exceeds its wall
 * time by how much its files overlapped. The report does not name a file's project: it is read
 * from today's groups (scripts/test-groups.mjs), so an older report is labelled by today's lists.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectOfFile } from './test-groups.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  let reportPath = path.join(REPO_ROOT, 'test-results/vitest.json');
  let top = Infinity;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') top = Number(argv[++i]);
    else reportPath = argv[i];
  }
  return { reportPath, top };
}

/** One row per test file of the report. */
export function fileRows(report) {
  return report.testResults.map((file) => {
    // From tests/ on, so a report written in another checkout (CI's) reads the same.
    const at = file.name.lastIndexOf('/tests/');
    const relative = at >= 0 ? file.name.slice(at + 1) : path.relative(REPO_ROOT, file.name);
    return {
      file: relative,
      project: projectOfFile(relative),
      seconds: (file.endTime - file.startTime) / 1000,
      tests: file.assertionResults.length,
      failed: file.assertionResults.filter((t) => t.status === 'failed').length + (file.status === 'failed' && file.assertionResults.length === 0 ? 1 : 0),
      startMs: file.startTime,
      endMs: file.endTime,
    };
  });
}

/** Per project: files, tests, the sum of its files' seconds, and its span from first start to last end. */
export function projectTotals(rows) {
  const totals = new Map();
  for (const row of rows) {
    const t = totals.get(row.project) ?? { project: row.project, files: 0, tests: 0, seconds: 0, startMs: Infinity, endMs: -Infinity };
    t.files++;
    t.tests += row.tests;
    t.seconds += row.seconds;
    t.startMs = Math.min(t.startMs, row.startMs);
    t.endMs = Math.max(t.endMs, row.endMs);
    totals.set(row.project, t);
  }
  return [...totals.values()].sort((a, b) => a.startMs - b.startMs);
}

const secs = (s) => s.toFixed(1).padStart(7);

export function formatTable(report, top = Infinity) {
  const rows = fileRows(report).sort((a, b) => b.seconds - a.seconds);
  if (rows.length === 0) return 'Test times: the report holds no test files.';
  const width = Math.max(...rows.map((r) => r.project.length), 'project'.length);
  const lines = [`Test times (slowest first; ${rows.length} files):`, `${'seconds'.padStart(7)}  tests  ${'project'.padEnd(width)}  file`];
  for (const row of rows.slice(0, top)) {
    const mark = row.failed ? `  (${row.failed} failed)` : '';
    lines.push(`${secs(row.seconds)}  ${String(row.tests).padStart(5)}  ${row.project.padEnd(width)}  ${row.file}${mark}`);
  }
  if (rows.length > top) lines.push(`    ... ${rows.length - top} more files, ${rows.slice(top).reduce((s, r) => s + r.seconds, 0).toFixed(1)} s together`);
  const firstMs = Math.min(...rows.map((r) => r.startMs));
  const lastMs = Math.max(...rows.map((r) => r.endMs));
  lines.push('', 'Per project (files run side by side, so seconds summed exceed the span):', `${'project'.padEnd(width)}  files  tests  summed s  span s  from s  to s`);
  for (const t of projectTotals(rows)) {
    lines.push(`${t.project.padEnd(width)}  ${String(t.files).padStart(5)}  ${String(t.tests).padStart(5)}  ${t.seconds.toFixed(1).padStart(8)}  ${((t.endMs - t.startMs) / 1000).toFixed(1).padStart(6)}  ${((t.startMs - firstMs) / 1000).toFixed(0).padStart(6)}  ${((t.endMs - firstMs) / 1000).toFixed(0).padStart(4)}`);
  }
  const summed = rows.reduce((s, r) => s + r.seconds, 0);
  const wallSec = (lastMs - (report.startTime ?? firstMs)) / 1000;
  lines.push('', `Wall time: ${wallSec.toFixed(1)} s from Vitest's start to the last file's end; ${summed.toFixed(1)} s of files, ${(summed / wallSec).toFixed(2)} files at a time on average; ${rows.reduce((s, r) => s + r.tests, 0)} tests.`);
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { reportPath, top } = parseArgs(process.argv.slice(2));
  let report;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch (error) {
    console.error(`Test times: cannot read ${reportPath} (${error.message}); Vitest writes it with --reporter=json --outputFile.json=${path.relative(REPO_ROOT, reportPath)}.`);
    process.exit(1);
  }
  console.log(formatTable(report, top));
}
