/**
 * How far an agent's clock is from the dashboard's. Broadcast and group latencies are measured
 * on a receiver that may not share the sender's clock, so every agent runs on the dashboard's
 * time base: its clock minus this offset.
 *
 * One round trip: the dashboard notes t0, asks the agent for its time, and notes t1 when the
 * answer comes. If the two legs took equally long, the agent read its clock at (t0 + t1) / 2 on
 * the dashboard's clock; whatever the legs took, the error is at most half the round trip. So
 * take several and keep the one with the shortest round trip (NTP's rule). The samples are those
 * of one round only: an old short round trip says nothing about a clock that has drifted since.
 */

export interface ClockSample {
  /** Dashboard clock when the ping left and when the answer came, epoch µs. */
  sentUs: number;
  receivedUs: number;
  /** Agent clock when it answered, epoch µs. */
  agentUs: number;
}

export interface ClockEstimate {
  /** Agent clock minus dashboard clock, µs. */
  offsetUs: number;
  /** The true offset is within ± this, µs: half the best round trip. */
  uncertaintyUs: number;
  /** Round trips answered. */
  samples: number;
  /** Dashboard clock when the best round trip's answer came, epoch µs: when the estimate held. */
  measuredAtUs: number;
}

export function estimateClockOffset(samples: readonly ClockSample[]): ClockEstimate | null {
  let best: ClockSample | null = null;
  for (const sample of samples) {
    const roundTripUs = sample.receivedUs - sample.sentUs;
    if (roundTripUs < 0) continue;
    if (!best || roundTripUs < best.receivedUs - best.sentUs) best = sample;
  }
  if (!best) return null;
  return {
    // `+ 0` turns Math.round's -0 (for offsets in (-0.5, 0]) into 0: JSON has no -0, so a stored
    // run would otherwise read back different from the one that was measured.
    offsetUs: Math.round(best.agentUs - (best.sentUs + best.receivedUs) / 2) + 0,
    uncertaintyUs: Math.round((best.receivedUs - best.sentUs) / 2),
    samples: samples.length,
    measuredAtUs: best.receivedUs,
  };
}
