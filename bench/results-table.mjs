// Adds a result row to its own table in bench/RESULTS.md: the first table after the section
// whose heading starts with `## <heading>`, below its last row, so benchmarks that share the file
// never write into each other's tables. Also a command: node bench/results-table.mjs <heading> <row>
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');

export function addResultRow(heading, row, file = RESULTS) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const section = lines.findIndex((line) => line.startsWith(`## ${heading}`));
  if (section < 0) throw new Error(`${file} has no section "## ${heading}…"; add it (with its table header) first.`);
  const tableStart = lines.findIndex((line, i) => i > section && line.startsWith('|'));
  if (tableStart < 0 || lines.slice(section + 1, tableStart).some((line) => line.startsWith('## '))) {
    throw new Error(`The section "## ${heading}" in ${file} has no table.`);
  }
  let last = tableStart;
  while (lines[last + 1]?.startsWith('|')) last++;
  lines.splice(last + 1, 0, row);
  writeFileSync(file, lines.join('\n'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [heading, row] = process.argv.slice(2);
  addResultRow(heading, row);
}
