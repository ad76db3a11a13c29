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
  /** A browser agent that lost the control hub. */
  agentLostControl: (p: { error?: Error }) => `Lost the control hub${p.error ? ` (${p.error.message})` : ''}. Reload this page to join again.`,
  /** The bench hook's POST of a run's or a search's report failed (said in the console). */
  reportNotSent: (p: { what: 'benchmark' | 'capacity'; url: string; error: unknown }) => `The ${p.what} report could not be sent to ${p.url}: ${said(p.error)}`,
  controlClosed: (p: { error?: Error }) =>
    `The connection to the control hub closed${p.error ? ` (${p.error.message})` : ''}: the agents are no longer reachable. Invite them again.`,
  noCanvas: () => 'this browser cannot draw on a canvas, so no image can be made',
  notEncoded: () => 'the chart could not be encoded as PNG',
  /** The browser's storage for the history. */
  historyUnreadable: (p: { reason: string }) =>
    `The kept runs could not be read: ${p.reason}. Reload the page; if it persists, the browser's storage for this site may be damaged.`,
  noStorage: (p: { reason: string }) =>
    `Runs cannot be kept in this browser (${p.reason}); private windows and some privacy settings refuse storage. Runs stay until the page closes: download them as JSON to keep them.`,

  /** An import of kept runs (`runs`: '"Echo 1k"' or "3 runs"): what it added, what was kept already. */
  alreadyKept: (p: { runs: string; count: number; file: string }) =>
    `${p.runs} from ${p.file} ${p.count === 1 ? 'is' : 'are'} already kept here; left as ${p.count === 1 ? 'it is' : 'they are'}.`,
  nothingImported: (p: { kept: string }) => `Nothing imported: ${p.kept}`,
  imported: (p: { runs: string; file: string; kept: string }) => `Imported ${p.runs} from ${p.file}.${p.kept ? ` ${p.kept}` : ''}`,
  /** An internal error, said as the page's own (its message without the closing full stop). */
  pagesOwnFailure: (p: { message: string }) => `${p.message} (the page's own failure, not the service's).`,
  /** The run bar while the messages in flight drain; an accounting error beside the missing count. */
  draining: (p: { seconds: string }) => `waiting up to ${p.seconds} s for the messages in flight`,
  overCounted: (p: { over: string }) => `, accounting error: ${p.over} counted beyond the plan`,
  /** IndexedDB's own refusals without an error of their own. */
  writeFailed: () => 'IndexedDB write failed',
  writeAborted: () => 'IndexedDB write aborted (the disk may be full)',
  /** A capacity search: */
  /** Before a step's load in the search's status: what kind of step it is (nothing for a climb). */
  stepPhase: (p: { phase: string }) => (p.phase === 'bisect' ? 'bisecting, ' : p.phase === 'confirm' ? 'running the break again to confirm it, ' : ''),
  firstStepNotStarted: () => 'The first step could not start: see the agents panel for why (for example more connections than the browsers hold).',

  /** A comparison, by runs or by what each holds: */
  pauseNotWhole: (p: { pause: string }) => `The pause between runs must be a whole number of seconds, but is "${p.pause}".`,
  stepNotStarted: (p: { label: string }) => `${p.label} could not start; the comparison stopped. The runs finished before are kept in the history.`,
  stepFailed: (p: { label: string; reason?: string | null }) =>
    `${p.label} failed: ${p.reason ?? 'nothing could be measured.'} The comparison stopped there; the runs before it are kept in the history.`,
  /** A search or a comparison that ended on an error: what finished before it is kept. */
  stopped: (p: { what: 'search' | 'comparison'; kept: 'steps' | 'runs' | 'searches'; error: unknown }) =>
    `The ${p.what} stopped: ${said(p.error)}. The ${p.kept} finished before are kept in the history.`,

  /** Query parameters typed under Advanced → Authentication (`which`: "The 2nd parameter"). */
  noEquals: (p: { which: string }) => `${p.which} has no "=": give each as name=value.`,
  noName: (p: { which: string }) => `${p.which} has no name before its "=": give each as name=value.`,
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
  /** After the finder's totals when small messages count as 1,024 B against the limits. */
  effectiveTotals: (p: { inBytes: string; outBytes: string }) => ` (with messages under 1,024 B counted as 1,024 B: ${p.inBytes} in, ${p.outBytes} out)`,
  beyondAppServerTables: () => "beyond the guide's app-server tables",
  noFinderRows: () => 'Add a row to describe the workload: a scenario with its connections, message size and send interval.',
  /** `row`: "Row 2"; `what`: "Row 2: senders"; `hint`: one of finderHints; figures formatted. */
  unknownScenario: (p: { row: string; scenarios: string; scenario: string }) => `${p.row}: scenario must be one of ${p.scenarios}, but is "${p.scenario}".`,
  emptyField: (p: { what: string; hint: string }) => `${p.what} is empty; enter ${p.hint}.`,
  notNumber: (p: { what: string; hint: string; typed: string }) => `${p.what} must be ${p.hint}, but is "${p.typed}".`,
  belowOne: (p: { what: string; value: string }) => `${p.what} must be at least 1, but is ${p.value}.`,
  notWhole: (p: { what: string; value: string }) => `${p.what} must be a whole number, but is ${p.value}; round it.`,
  fixRows: (p: { rows: readonly number[] }) => `Fix row${p.rows.length > 1 ? 's' : ''} ${p.rows.join(', ')} to see a tier: the sum needs every row.`,
};
