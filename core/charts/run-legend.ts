/**
 * How runs are told apart wherever they stand side by side: one colour per run and the label each
 * run gets in tables and legends. The page's comparison (CompareView.svelte), the HTML report and
 * the CSV read them here, so a run has the same colour and name in all of them. Pure.
 */

/** One colour per run, in order. */
export const RUN_COLORS = ['#1971c2', '#e8590c', '#2f9e44', '#ae3ec9', '#c92a2a', '#0c8599', '#f08c00', '#5c940d'];

/** The colour of the run at `index`: the colours repeat past the eighth run. */
export function runColor(index: number): string {
  return RUN_COLORS[index % RUN_COLORS.length]!;
}

/** The label each run gets in tables and legends: its name, numbered when names repeat. */
export function runLabels(runs: readonly { name: string }[]): string[] {
  const names = withoutSharedParts(runs.map((run) => run.name));
  return names.map((name, i) => (names.filter((n) => n === name).length > 1 ? `${i + 1}. ${name}` : name));
}

/**
 * Names without the " · " parts every one of them shares at the start or the end: "Echo · WebSockets +
 * JSON · 10 connections" beside "Echo · Long Polling + JSON · 10 connections" reads "WebSockets +
 * JSON" and "Long Polling + JSON" (the shared scenario and load are stated once beside them).
 */
function withoutSharedParts(names: readonly string[]): string[] {
  if (names.length < 2) return [...names];
  const parts = names.map((name) => name.split(' · '));
  const shortest = Math.min(...parts.map((p) => p.length));
  const same = (pick: (p: string[]) => string | undefined) => parts.every((p) => pick(p) === pick(parts[0]!));
  let head = 0;
  while (head < shortest - 1 && same((p) => p[head])) head++;
  let tail = 0;
  while (tail < shortest - head - 1 && same((p) => p[p.length - 1 - tail])) tail++;
  return parts.map((p) => p.slice(head, p.length - tail).join(' · '));
}
