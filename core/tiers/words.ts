/**
 * The tiers room's words: which tier of an edition fits a run and why the one below does not,
 * how the run differs from the guide's test conditions, and whether the guide's own figures vouch
 * for the tier. tier-figures.ts judges with values; only this file writes prose, so the tier
 * panel, the runner and the reports say the same thing. Pure; figures arrive formatted.
 */
export const TIERS_WORDS = {
  /** "This configuration should produce 1,000 msg/s in, 1,000 out (2 MBps in, 2 MBps out)."; with
   *  `effective` when small messages count as larger against the tier limits. Figures formatted. */
  expected: (p: { inRate: string; outRate: string; inBytes: string; outBytes: string; effective?: { bytes: string; countsAs: string; inBytes: string; outBytes: string } }) =>
    `This configuration should produce ${p.inRate} msg/s in, ${p.outRate} out ` +
    `(${p.inBytes} in, ${p.outBytes} out).` +
    (p.effective
      ? ` Against the tier limits each ${p.effective.bytes}-B message counts as ${p.effective.countsAs} B: ` +
        `${p.effective.inBytes} in, ${p.effective.outBytes} out.`
      : ''),
  noTierFits: (p: { edition: string; largest?: { tier: string; reasons: string } }) =>
    `No tier of the ${p.edition} edition fits${p.largest ? `; even ${p.largest.tier}: ${p.largest.reasons}` : '.'}`,
  smallestCoversAll: (p: { tier: string; edition: string }) => `${p.tier}, the smallest tier of the ${p.edition} edition, covers every limit.`,
  smallestWithin: (p: { tier: string; edition: string; below: string; reasons: string }) =>
    `${p.tier} is the smallest tier of the ${p.edition} edition within every limit; ${p.below} does not fit: ${p.reasons}`,
  /** The run's message size or interval differs from the guide's (2,048 B every 1,000 ms). */
  otherConditions: (p: { guideBytes: string; guideIntervalMs: string; runBytes: string; runIntervalMs: string }) =>
    `The guide measured ${p.guideBytes}-B messages every ${p.guideIntervalMs} ms; this run sends ` +
    `${p.runBytes} B every ${p.runIntervalMs} ms, so the bandwidth rows compare better than the message rows.`,
  mathCannotExpress: (p: { error: string }) => `The guide's math cannot express this configuration: ${p.error}`,
  /** Within a tier's limits but above the guide's measured figures there; then who covers it. */
  aboveMeasured: (p: { tier: string; scenario: string; over: string; fitting: string | null }) =>
    `${p.tier}'s limits hold this configuration, but this run is above what the guide measured for ${p.scenario} on ${p.tier}: ${p.over}. ` +
    (p.fitting
      ? `${p.fitting} is the smallest tier whose limits and published ${p.scenario} numbers both cover it.`
      : `No tier's published ${p.scenario} numbers cover it: the guide's numbers are what it measured under its own test conditions, so no tier is vouched for at this load.`),
  alsoMeasured: (p: { fit: string; scenario: string; tier: string }) => `${p.fit} This run is also within what the guide measured for ${p.scenario} on ${p.tier}.`,
};
