/**
 * The clocks room's words: why the agents' clocks leave a run without a verdict, and what to do.
 * clock-drift.ts judges the receptions against the clock bound; only this file writes prose, so
 * the page, the runner and the reports say the same thing. Pure.
 */
import { formatMs } from '../format.ts';

const count = (n: number) => n.toLocaleString('en-US');
const percentOf = (part: number, whole: number) => ((part / whole) * 100).toFixed(2);

export const CLOCKS_WORDS = {
  /** An agent's clock at the run's start that no round measured. */
  startUnknown: () => 'unknown: no answer, ran on its own clock',
  /** Receptions before their planned send time, further before than the clock bound allows. */
  beforeSent: (p: { negative: number; maxNegativeUs: number; boundUs: number }) =>
    `No verdict: ${count(p.negative)} reception(s) arrived before their planned send time, up to ${formatMs(p.maxNegativeUs)} before, beyond the agents' clock bound of ± ${formatMs(p.boundUs)}: a clock moved more than its rounds saw, so no latency across agents can be trusted. Measure the clocks again, or run echo, whose sender and receiver share one clock.`,
  /** Too many receptions undecidable because agents missed the closing clock round. */
  driftUnknown: (p: { undecidable: number; planned: number; unbounded: number; agents: number }) => {
    const one = p.agents === 1;
    return `No verdict: ${count(p.undecidable)} of ${count(p.planned)} planned receptions (${percentOf(p.undecidable, p.planned)}%) cannot be told in time or late: ${count(p.unbounded)} of them arrived after the start round of ${one ? 'an agent' : `${count(p.agents)} agents`} that missed the run's closing clock round (${one ? 'it' : 'they'} left or did not answer), so how far ${one ? 'its clock' : 'their clocks'} drifted is unknown and no bound holds for them. Keep every agent connected to the control hub until the run's closing round, or run echo, whose sender and receiver share one clock.`;
  },
  /** Too many receptions within the clock bound of the 1 s line to tell in time from late. */
  tooManyUndecidable: (p: { undecidable: number; planned: number; boundUs: number }) =>
    `No verdict: ${count(p.undecidable)} of ${count(p.planned)} planned receptions (${percentOf(p.undecidable, p.planned)}%) arrived within the agents' clock bound of ± ${formatMs(p.boundUs)} of the 1 s line: the clocks cannot tell in time from late for more than 1%. Put the agents where round trips to the control hub are shorter, or run echo.`,
};
