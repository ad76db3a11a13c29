// The tool's own goals, read from one run: the tab against raw WebSockets in the same browser,
// the headless runner against the plain-library script, the latency the tool adds, and the
// dashboard's main thread. Each line says the figure, the goal and whether this run meets it;
// a figure the run did not measure reads "not measured", never as met.

// `+ 0` and the rounding first: a difference that rounds to zero reads 0.00, not -0.00.
const n = (v, digits = 2) => (v == null || Number.isNaN(v) ? '–' : (Number(Number(v).toFixed(digits)) + 0).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const row = (cells) => `| ${cells.join(' | ')} |`;
const NOT_MEASURED = { figure: 'not measured', met: null };
/** Runs before the runner joined name no clients: those four ran. */
const clientsOf = (t) => t?.clients ?? (t ? ['tab', 'browserRaw', 'library', 'raw'] : []);

/** The last attempt of each step a client ran without an error, by send interval. */
function lastAttempts(steps, client) {
  const byInterval = new Map();
  for (const s of steps) if (s.client === client && !s.error && !s.label) byInterval.set(s.intervalMs, s);
  return byInterval;
}

/** `a ÷ b` at the step of `interval` when both clients ran it. */
function stepRatio(steps, a, b, intervalMs, field) {
  const x = lastAttempts(steps, a).get(intervalMs);
  const y = lastAttempts(steps, b).get(intervalMs);
  if (!x || !y || !x[field] || !y[field]) return null;
  return { ratio: x[field] / y[field], a: x, b: y };
}

/** The step (by interval) of the run nearest to a target rate. */
function stepNear(steps, client, targetPerSec) {
  let best = null;
  for (const s of lastAttempts(steps, client).values()) if (!best || Math.abs(s.targetPerSec - targetPerSec) < Math.abs(best.targetPerSec - targetPerSec)) best = s;
  return best;
}

function tabGoals(t) {
  if (!clientsOf(t).includes('tab') || !clientsOf(t).includes('browserRaw')) return [];
  const ceiling = (c) => t.ceilings[c]?.receivedPerSec ?? null;
  const out = [];
  const ceilingRatio = ceiling('tab') && ceiling('browserRaw') ? ceiling('tab') / ceiling('browserRaw') : null;
  out.push({ goal: 'tab ceiling ≥ 0.95× raw WebSockets in the same browser', figure: ceilingRatio == null ? 'not measured'
    : `${n(ceilingRatio)}× (${n(ceiling('tab'), 0)} against ${n(ceiling('browserRaw'), 0)} msg/s)`, met: ceilingRatio == null ? null : ceilingRatio >= 0.95 });
  for (const rate of [1_000, 2_500]) {
    const tabStep = stepNear(t.steps, 'tab', rate);
    const cpu = tabStep && stepRatio(t.steps, 'tab', 'browserRaw', tabStep.intervalMs, 'cpuSecPer1000');
    out.push(cpu ? { goal: `tab CPU per 1,000 round trips ≤ 1.1× raw at ${n(tabStep.targetPerSec, 0)} msg/s`,
      figure: `${n(cpu.ratio)}× (${n(cpu.a.cpuSecPer1000, 3)} against ${n(cpu.b.cpuSecPer1000, 3)} s)`, met: cpu.ratio <= 1.1 }
      : { goal: `tab CPU per 1,000 round trips ≤ 1.1× raw at ${n(rate, 0)} msg/s`, ...NOT_MEASURED });
  }
  // Not a goal: how much of the tab's CPU the library alone accounts for, at the same steps.
  for (const rate of [1_000, 2_500]) {
    const libStep = stepNear(t.steps, 'browserLibrary', rate);
    const lib = libStep && stepRatio(t.steps, 'browserLibrary', 'browserRaw', libStep.intervalMs, 'cpuSecPer1000');
    if (lib) out.push({ goal: `(for reference, no goal) plain @microsoft/signalr in the same browser against raw at ${n(libStep.targetPerSec, 0)} msg/s`,
      figure: `${n(lib.ratio)}× (${n(lib.a.cpuSecPer1000, 3)} against ${n(lib.b.cpuSecPer1000, 3)} s)`, met: 'reference' });
  }
  const half = ceiling('browserRaw') && stepNear(t.steps, 'tab', ceiling('browserRaw') / 2);
  const p99 = half && stepRatio(t.steps, 'tab', 'browserRaw', half.intervalMs, 'p99Ms');
  out.push(p99 ? { goal: `tab p99 at half the browser's ceiling (${n(half.targetPerSec, 0)} msg/s) ≤ 2× raw`,
    figure: `${n(p99.ratio)}× (${n(p99.a.p99Ms, 1)} against ${n(p99.b.p99Ms, 1)} ms)`, met: p99.ratio <= 2 }
    : { goal: 'tab p99 at half the browser\'s ceiling ≤ 2× raw', ...NOT_MEASURED });
  out.push(...libraryTail(t, half));
  out.push(...browserControl(t, half));
  return out;
}

/**
 * The tab's p99 against plain @microsoft/signalr in the same browser at the same step (the
 * library's own tail is a floor no page that uses it can go under), with that library run again
 * beside it when the run has it: how far the same ratio reads when nothing differs.
 */
function libraryTail(t, half) {
  if (t.tail) return libraryTailRounds(t.tail);
  if (!half || !clientsOf(t).includes('browserLibrary')) return [];
  const p99 = stepRatio(t.steps, 'tab', 'browserLibrary', half.intervalMs, 'p99Ms');
  const out = [p99 ? { goal: `tab p99 at half the browser's ceiling (${n(half.targetPerSec, 0)} msg/s) ≤ 1.25× plain @microsoft/signalr in the same browser`,
    figure: `${n(p99.ratio)}× (${n(p99.a.p99Ms, 1)} against ${n(p99.b.p99Ms, 1)} ms)`, met: p99.ratio <= 1.25 }
    : { goal: 'tab p99 at half the browser\'s ceiling ≤ 1.25× plain @microsoft/signalr in the same browser', ...NOT_MEASURED }];
  const again = clientsOf(t).includes('browserLibraryAgain') && stepRatio(t.steps, 'browserLibraryAgain', 'browserLibrary', half.intervalMs, 'p99Ms');
  if (again) out.push({ goal: '(control, no goal) plain @microsoft/signalr in the same browser run again, against its first run',
    figure: `p99 ${n(again.ratio)}× at ${n(half.targetPerSec, 0)} msg/s (${n(again.a.p99Ms, 1)} against ${n(again.b.p99Ms, 1)} ms)`, met: 'reference' });
  return out;
}

/** The same goal read on the medians of the tail's rounds (benches/throughput.mjs tailRounds), each
 *  ratio with the interval resampling the rounds gives it (lib/rounds.mjs). */
function libraryTailRounds(tail) {
  const of = (client) => tail.summary.find((c) => c.client === client);
  const at = `half the browser's ceiling (${n(tail.targetPerSec, 0)} msg/s, ${n(tail.rounds, 0)} rounds)`;
  const figure = (c) => `${n(c.againstBaseline.ratio)}× (median p99 ${n(c.medianP99Ms, 1)} against ${n(of(tail.baseline).medianP99Ms, 1)} ms; resampled ${n(c.againstBaseline.low)}–${n(c.againstBaseline.high)}×)`;
  const out = [];
  for (const c of tail.summary) {
    if (c.client === tail.baseline || c.client === 'browserLibraryAgain') continue;
    const goal = `${c.client} p99 at ${at} ≤ 1.25× plain @microsoft/signalr in the same browser`;
    out.push(c.againstBaseline ? { goal, figure: figure(c), met: c.againstBaseline.ratio <= 1.25 } : { goal, ...NOT_MEASURED });
  }
  const again = of('browserLibraryAgain');
  if (again?.againstBaseline) out.push({ goal: '(control, no goal) plain @microsoft/signalr in the same browser run again, against its first run', figure: figure(again), met: 'reference' });
  return out;
}

/** Not a goal: raw WebSockets in the same browser against themselves, by the measures the tab's goals use. */
function browserControl(t, half) {
  if (!clientsOf(t).includes('browserRawAgain')) return [];
  const parts = [];
  const again = t.ceilings.browserRawAgain?.receivedPerSec;
  const raw = t.ceilings.browserRaw?.receivedPerSec;
  if (again && raw) parts.push(`ceiling ${n(again / raw)}× (${n(again, 0)} against ${n(raw, 0)} msg/s)`);
  const steps = new Set([1_000, 2_500].map((rate) => stepNear(t.steps, 'browserRawAgain', rate)).filter(Boolean));
  for (const step of steps) {
    const cpu = stepRatio(t.steps, 'browserRawAgain', 'browserRaw', step.intervalMs, 'cpuSecPer1000');
    if (cpu) parts.push(`CPU ${n(cpu.ratio)}× at ${n(step.targetPerSec, 0)} msg/s`);
  }
  const p99 = half && stepRatio(t.steps, 'browserRawAgain', 'browserRaw', half.intervalMs, 'p99Ms');
  if (p99) parts.push(`p99 ${n(p99.ratio)}× at ${n(half.targetPerSec, 0)} msg/s (${n(p99.a.p99Ms, 1)} against ${n(p99.b.p99Ms, 1)} ms)`);
  return parts.length === 0 ? [] : [{ goal: '(control, no goal) raw WebSockets in the same browser run again, against their first run', figure: parts.join('; '), met: 'reference' }];
}

/** Not a goal: the plain-library script run again against its first run, by the measures the runner's goals use. */
function scriptControl(t) {
  if (!clientsOf(t).includes('libraryAgain') || !clientsOf(t).includes('library')) return [];
  const first = lastAttempts(t.steps, 'library');
  const pairs = [...lastAttempts(t.steps, 'libraryAgain').values()].map((a) => ({ a, s: first.get(a.intervalMs) }))
    .filter(({ a, s }) => s && a.holds && s.holds && a.cpuSecPer1000 && s.cpuSecPer1000);
  if (pairs.length === 0) return [];
  const ratios = pairs.map(({ a, s }) => a.cpuSecPer1000 / s.cpuSecPer1000);
  const apart = pairs.filter(({ a, s }) => a.missedSlots !== s.missedSlots);
  const ac = t.ceilings.libraryAgain;
  const sc = t.ceilings.library;
  return [{ goal: '(control, no goal) the plain-library script run again, against its first run',
    figure: `CPU per message ${n(Math.min(...ratios))}–${n(Math.max(...ratios))}× over ${pairs.length} steps (median ${n(median(ratios))}×); ` +
      `missed slots ${apart.length === 0 ? `the same at every step` : `differ at ${apart.map(({ a, s }) => `${n(a.targetPerSec, 0)} msg/s (${n(a.missedSlots, 0)} against ${n(s.missedSlots, 0)})`).join(', ')}`}; ` +
      `ceiling ${!ac || !sc ? 'not measured' : ac.targetPerSec === sc.targetPerSec ? `the same step held (${n(ac.targetPerSec, 0)} msg/s)` : `the ${n(ac.targetPerSec, 0)} msg/s step held, against the ${n(sc.targetPerSec, 0)}`}`,
    met: 'reference' }];
}

function runnerGoals(t, runner, label) {
  if (!clientsOf(t).includes(runner) || !clientsOf(t).includes('library')) return [];
  const scriptSteps = lastAttempts(t.steps, 'library');
  const pairs = [...lastAttempts(t.steps, runner).values()].map((r) => ({ r, s: scriptSteps.get(r.intervalMs) }))
    .filter(({ r, s }) => s && r.holds && s.holds && r.cpuSecPer1000 && s.cpuSecPer1000);
  const out = [];
  if (pairs.length === 0) return [{ goal: `${label}: CPU per message ≤ 1.0× the plain-library script`, ...NOT_MEASURED }];
  const ratios = pairs.map(({ r, s }) => r.cpuSecPer1000 / s.cpuSecPer1000);
  const worst = Math.max(...ratios);
  out.push({ goal: `${label}: CPU per message ≤ 1.0× the plain-library script, at every step both held`,
    figure: `${n(Math.min(...ratios))}–${n(worst)}× over ${pairs.length} steps (median ${n(median(ratios))}×)`, met: worst <= 1.0 });
  const missedMore = pairs.filter(({ r, s }) => r.missedSlots > s.missedSlots);
  out.push({ goal: `${label}: missed slots no more than the script's`, figure: missedMore.length === 0 ? `no more at any of ${pairs.length} steps`
    : `more at ${missedMore.map(({ r, s }) => `${n(r.targetPerSec, 0)} msg/s (${n(r.missedSlots, 0)} against ${n(s.missedSlots, 0)})`).join(', ')}`, met: missedMore.length === 0 });
  const rc = t.ceilings[runner];
  const sc = t.ceilings.library;
  // Judged by the step each held (its planned rate): what arrived in the window differs by a
  // message or two at the same step.
  out.push({ goal: `${label}: ceiling at least the script's`,
    figure: rc && sc ? `${n(rc.receivedPerSec / sc.receivedPerSec)}× (${n(rc.receivedPerSec, 0)} against ${n(sc.receivedPerSec, 0)} msg/s received${rc.targetPerSec === sc.targetPerSec ? `, both at the ${n(rc.targetPerSec, 0)} msg/s step` : ''})` : 'not measured',
    met: rc && sc ? rc.targetPerSec >= sc.targetPerSec : null });
  return out;
}

function latencyGoals(l) {
  const tab = l?.clients?.tab;
  if (!tab?.wire) return [];
  const floor = l.clients.browserRaw?.wire ? l.clients.browserRaw.overheadMs.p50 : null;
  return [{ goal: 'latency the tab adds over the wire ≤ 0.5 ms at p50, or the floor explained with the raw client beside it',
    figure: `${n(tab.overheadMs.p50)} ms; raw WebSockets in the same browser ${n(floor)} ms (the browser's floor), so the tab adds ${n(floor == null ? null : tab.overheadMs.p50 - floor)} ms above it`,
    met: tab.overheadMs.p50 <= 0.5 || (floor != null && tab.overheadMs.p50 - floor <= 0.5) }];
}

function dashboardGoals(d) {
  if (!d?.minutes?.length) return [];
  const first = d.minutes[0].mainBusyShare;
  const last = d.minutes.at(-1).mainBusyShare;
  const peak = Math.max(...d.minutes.map((m) => m.mainBusyShare));
  // Flat: the least-squares trend over every minute grows less than half a point over the run.
  // Not the last minute against the first: the first is the run's start, with nothing to draw yet.
  const growthPoints = d.flatness ? (d.flatness.slopePointsPer10Min * d.minutes.length) / 10 : null;
  return [{ goal: `dashboard main thread ≤ 5% and flat over the run (${d.minutes.length} min)`,
    figure: `${n(100 * d.mainBusyShare, 1)}% over the run; minute 1 ${n(100 * first, 1)}%, last minute ${n(100 * last, 1)}%, busiest minute ${n(100 * peak, 1)}%; trend ${growthPoints == null ? 'not measured' : `${growthPoints >= 0 ? '+' : ''}${n(growthPoints, 2)} points over the run`}`,
    met: growthPoints == null ? null : peak <= 0.05 && growthPoints <= 0.5 }];
}

export function goalsSection(results) {
  const goals = [...tabGoals(results.throughput), ...runnerGoals(results.throughput, 'runner', 'runner, 2 threads'),
    ...runnerGoals(results.throughput, 'runner1', 'runner, 1 thread'), ...scriptControl(results.throughput), ...latencyGoals(results.latency), ...dashboardGoals(results.dashboard)];
  if (goals.length === 0) return [];
  return ['## Against the goals', '', 'Each figure below comes from the tables of this run.', '',
    row(['goal', 'this run', 'met']), row(['---', '---', '---']),
    ...goals.map((g) => row([g.goal, g.figure, g.met === 'reference' ? '–' : g.met == null ? 'not measured' : g.met ? 'yes' : '**no**'])), ''];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
