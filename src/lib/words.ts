/**
 * The page's words: what its controllers and stores (src/lib) say to people when a search or a
 * comparison stops, the browser refuses storage or a canvas, a session or the control hub closes,
 * a form's value cannot be read, or the bench hook's link is wrong. The logic names the case and
 * its values; this file writes the sentence; the components show it as it is. Causes worded by
 * core/ (a comparison that cannot start, a run's failure) come in as values, never reworded here.
 */

/** An error's own message, or the thrown value as text. */
const said = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const PAGE_WORDS = {
  /** ?autostart=1 with a report link that is not http(s). */
  badReportUrl: (p: { reportUrl: string }) => `report must be an absolute http(s) URL to POST the result to, but is "${p.reportUrl}".`,
  sessionClosed: () => 'The dashboard closed the session. Reload this page with a new code to join again.',
  controlClosed: (p: { error?: Error }) =>
    `The connection to the control hub closed${p.error ? ` (${p.error.message})` : ''}: the agents are no longer reachable. Invite them again.`,
  noCanvas: () => 'this browser cannot draw on a canvas, so no image can be made',
  /** The browser's storage for the history. */
  historyUnreadable: (p: { reason: string }) =>
    `The kept runs could not be read: ${p.reason}. Reload the page; if it persists, the browser's storage for this site may be damaged.`,
  noStorage: (p: { reason: string }) =>
    `Runs cannot be kept in this browser (${p.reason}); private windows and some privacy settings refuse storage. Runs stay until the page closes: download them as JSON to keep them.`,

  /** A capacity search: */
  firstStepNotStarted: () => 'The first step could not start: see the agents panel for why (for example more connections than the browsers hold).',

  /** A comparison, by runs or by what each holds: */
  pauseNotWhole: (p: { pause: string }) => `The pause between runs must be a whole number of seconds, but is "${p.pause}".`,
  stepNotStarted: (p: { label: string }) => `${p.label} could not start; the comparison stopped. The runs finished before are kept in the history.`,
  stepFailed: (p: { label: string; reason?: string | null }) =>
    `${p.label} failed: ${p.reason ?? 'nothing could be measured.'} The comparison stopped there; the runs before it are kept in the history.`,
  /** A search or a comparison that ended on an error: what finished before it is kept. */
  stopped: (p: { what: 'search' | 'comparison'; kept: 'steps' | 'runs' | 'searches'; error: unknown }) =>
    `The ${p.what} stopped: ${said(p.error)}. The ${p.kept} finished before are kept in the history.`,

  /** Query parameters typed under Advanced → Authentication. */
  reservedQuery: (p: { name: string }) => `${p.name} is the client's own parameter (the connection's token after negotiate): drop it.`,
  tokenInQuery: () => 'access_token is how the client sends the token itself: give the token once, in the Access token field.',

  /** The tier finder's rows: what each field takes, and why a value is refused. */
  finderHints: {
    connections: 'a whole number of client connections, e.g. 1000',
    messageBytes: 'a whole number of bytes, e.g. 2048',
    sendIntervalMs: 'a whole number of milliseconds, e.g. 1000',
    senders: 'a whole number of sending connections, or empty for the default',
    groupSize: 'a whole number of connections per group, or empty for the default',
  },
  noFinderRows: () => 'Add a row to describe the workload: a scenario with its connections, message size and send interval.',
};
