// The peer benchmark (bench/peers/peers.mjs) against its last recorded runner row at the same step:
// the runner's costs as ratios to its peers measured in the same round (so the machine's load,
// which moves every client's figures, mostly cancels), and a REGRESSION line when a ratio got worse
// by more than the run-to-run spread. Rows are kept in bench/peers-results.json, oldest first.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HISTORY = path.join(path.dirname(fileURLToPath(import.meta.url)), '../peers-results.json');

/**
 * How far one ratio may move between rounds of the same code before it is called a regression, as
 * a share of the earlier one. Provisional: memory per connection as the connections bench measured
 * its spread (bench/connections-compare.mjs, 15%); the ramp as that bench's ramp against its
 * control (30%), and the CPU ratios alike, until repeated rounds of this bench on a quiet machine
 * measure their own (the rounds of 2026-12-06 ran at load 2-28: bench/PEERS-RESULTS.md).
 */
export const RUN_TO_RUN_SPREAD = { memory: 0.15, cpuPerMessage: 0.3, cpuPerConnect: 0.3, connectsPerSec: 0.3 };

/** Missed slots (sent more than one interval late) up to this share of the sends: the client kept its plan. */
export const ON_TIME_MISSED_SHARE = 0.01;

/** Whether a client kept its plan in its run. */
export const onTime = (r) => typeof r.missedSlots === 'number' && r.missedSlots <= ON_TIME_MISSED_SHARE * Math.max(1, r.sent);

/** Every client's own accounting: each message it sent either arrived or is lost. */
export function accountingHolds(row) {
  return Number.isInteger(row.sent) && row.sent === row.received + row.lost;
}

/** The runner's costs over its peers' in the same round: above 1 the runner spends more. */
export function ratiosOf(row, peers) {
  const control = peers.find((p) => p.client === 'control');
  // A client behind its plan batches its sends and receptions and spends less a message than it
  // does on time (bench/PEERS-RESULTS.md): a runner on time is weighed against peers on time only.
  const comparable = onTime(row) ? peers.filter(onTime) : peers;
  const cheapest = (key) => {
    const values = comparable.map((p) => p[key]).filter((v) => typeof v === 'number' && v > 0);
    return values.length ? Math.min(...values) : null;
  };
  const over = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? Number((a / b).toFixed(2)) : null);
  return {
    memory: over(row.kbPerConnection, control?.kbPerConnection),
    cpuPerMessage: over(row.cpuMsPer1000, cheapest('cpuMsPer1000')),
    cpuPerConnect: over(row.cpuMsPerConnect, control?.cpuMsPerConnect),
    // The control's ramp over the runner's: above 1 the runner ramps slower.
    connectsPerSec: over(control?.connectsPerSec, row.connectsPerSec),
  };
}

const NAMES = {
  memory: 'memory per connection ÷ the control',
  cpuPerMessage: 'CPU per message ÷ the cheapest peer (on time, when the runner was)',
  cpuPerConnect: 'CPU per connect ÷ the control',
  connectsPerSec: "the control's connects per second ÷ the runner's",
};

/**
 * @param history earlier rows (every client), oldest first
 * @param row this round's runner row; peers: this round's other rows at its step
 * @returns { last, ratios, lines, regressions }
 */
export function compareWithLast(history, row, peers, spread = RUN_TO_RUN_SPREAD) {
  const ratios = ratiosOf(row, peers);
  row.ratios = ratios;
  const last = [...history].reverse().find((r) => r.client === 'runner' && r.step === row.step && r.ratios && onTime(r)) ?? [...history].reverse().find((r) => r.client === 'runner' && r.step === row.step && r.ratios) ?? null;
  const lines = [`${row.step}: the runner's ratios (1 = as cheap as the peer): ${Object.entries(ratios).map(([k, v]) => `${NAMES[k]} ${v ?? '–'}`).join('; ')}.`];
  const regressions = [];
  if (!last) {
    lines.push(`No earlier runner row at ${row.step}: this round is the reference.`);
    return { last, ratios, lines, regressions };
  }
  // A runner behind its plan holds more in flight and batches its work: its ratios are not those
  // of a runner on time (the same build read 0.80 and 1.30 of the control's memory at 10k, on time
  // and 21 s behind), so only two rounds with the runner on time are compared.
  if (!onTime(row) || !onTime(last)) {
    lines.push(`${row.step}: not compared with ${last.date}: the runner was behind its plan in ${!onTime(row) ? 'this round' : 'that round'} (${(!onTime(row) ? row : last).missedSlots} slots missed), where its figures are not those of a runner on time.`);
    return { last, ratios, lines, regressions };
  }
  for (const key of Object.keys(NAMES)) {
    const now = ratios[key];
    const was = last.ratios[key];
    if (typeof now !== 'number' || typeof was !== 'number') continue;
    const change = `${was} on ${last.date} → ${now}; spread ±${Math.round(spread[key] * 100)}%`;
    if (now > was * (1 + spread[key])) {
      const line = `REGRESSION at ${row.step}: ${NAMES[key]} ${change}, worse by more than the run-to-run spread.`;
      lines.push(line);
      regressions.push(line);
    } else lines.push(`${row.step}: ${NAMES[key]} ${change}, within the spread or better.`);
  }
  return { last, ratios, lines, regressions };
}

export function readHistory(file = HISTORY) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
}
