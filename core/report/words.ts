/**
 * The words of the HTML report and of a run's summary lines: the notes that say what a figure
 * counts, a run's state when its report was made, and the side-by-side section's headings. The
 * report's builders (html.ts, run-report.ts, comparison-report.ts, run-summary.ts,
 * server-summary.ts) fill them with figures; the entries that go into HTML take their values
 * already escaped and add no markup of their own beyond what they name (a <code>). Pure.
 */

export const REPORT_WORDS = {
  // The report's page (html.ts).
  generated: (p: { at: string; version: string; counted: string }) => `Report generated ${p.at} by SignalR Live Bench${p.version}. ${p.counted} is measured from each message's planned send time.`,

  // A run's section (run-report.ts).
  interrupted: () => 'This run was interrupted (the page was reloaded or closed): the figures cover what it had recorded until then; losses were never counted.',
  stillGoing: () => 'This run was still going when the report was made: the figures are partial.',
  explainedIn: (p: { docs: string }) => `Explained in the project's <code>${p.docs}</code>`,
  bytes: (p: { bytes: string }) => `${p.bytes} (every frame or body the transport carried, its framing not included)`,

  // Runs side by side (comparison-report.ts).
  sideBySide: () => 'Side by side',
  loadsDiffer: () => 'The runs differ in scenario or load: compare with care.',
  sameLoad: (p: { load: string }) => `The same load for every run: ${p.load}.`,
  sideBySideTable: () => 'Figures side by side',
  bestNote: () => 'Bold: the best value of the column; latencies within 1% of it and rates within 5% count as equally good, losses and errors are compared exactly; p99 and p99.9 name a best only from 500 and 5,000 messages a run. Bandwidth counts what the transport carried (every frame or body, its framing not included); for the same messages, fewer bytes win.',
  whyFailed: () => 'Why a run failed',
  winners: () => 'Winner per column',

  // What arrived that the run did not count (run-summary.ts).
  foreign: (p: { count: string }) => `foreign ${p.count} (another run or client on this hub: not counted as arrivals)`,
  unsolicited: (p: { count: string }) => `unsolicited ${p.count} (the hub's own messages or another client's, not the tool's: not counted as arrivals)`,
  altered: (p: { count: string }) => `altered ${p.count} (arrived, but the hub cut or changed the text: it is not the size sent)`,

  // The server's figures (server-summary.ts).
  deliveriesByHubs: (p: { count: string }) => `${p.count} deliveries counted by the hubs (each counts its calls' deliveries to its own connections; those carried to other instances by the backplane are not counted)`,
  perInstance: (p: { instances: readonly string[] }) => `Per instance (CPU the busiest one's above, counts their sum): ${p.instances.join('; ')}.`,
};
