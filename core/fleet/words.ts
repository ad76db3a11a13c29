/**
 * The fleet room's words: what the lead says to people about its agents (one refused, one that
 * left, clocks that did not answer, a run with no one left to carry it) and about the secrets it
 * sends them. fleet.ts, fleet-run.ts and agent-secrets.ts decide; only this file writes prose, so
 * the dashboard, the runner's lead and the agents say the same thing. Pure.
 */

/** `tr -dc <alphabet> </dev/urandom | head -c 20`: how to draw a session secret at random. */
const drawSecret = (alphabet: string) => `tr -dc ${alphabet} </dev/urandom | head -c 20`;

export const FLEET_WORDS = {
  /** Why an agent's introduction cannot be read, worded to follow "An agent was refused because". */
  notJson: () => 'its introduction is not JSON',
  noName: () => 'it gave no name',
  badKind: (p: { kind: string }) => `its kind "${p.kind}" is neither node nor browser`,
  badThreads: (p: { threads: string }) => `its thread count "${p.threads}" is not a whole number from 1 to 64`,
  /** An agent whose hello could not be read (another version of the tool). */
  agentRefused: (p: { why: string }) => `An agent was refused because ${p.why}. Start it with the same version of the tool as this dashboard.`,
  /** An agent's thread ended because the agent left the control hub. */
  agentLeft: (p: { name: string; thread: number }) =>
    `agent "${p.name}" (thread ${p.thread}) left the run: it disconnected from the control hub, so its connections count as lost`,
  /** Agents whose clock round trips got no answer, so no latency across agents can be told. */
  unknownClocks: (p: { names: readonly string[]; roundSec: number; scenario: string }) => {
    const quoted = p.names.map((name) => `"${name}"`);
    const one = quoted.length === 1;
    const who = one ? `Agent ${quoted[0]}` : `Agents ${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
    return (
      `${who} did not answer the clock round trips within ${p.roundSec} s: ${one ? 'its clock is' : 'their clocks are'} unknown, ` +
      `so "${p.scenario}" latencies across agents would be wrong. ` +
      `Stop ${one ? 'that agent (Ctrl+C where it runs' : 'those agents (Ctrl+C where each runs'}, or close its tab), ` +
      `check ${one ? 'its' : 'their'} network and press Measure clocks again, or run echo, whose sender and receiver share one clock.`
    );
  },
  /** A fleet run over more connections than its engines (and browsers) were measured to hold. */
  fleetTooSmall: (p: { engines: number; browsers: number; transport: string; capacity: string; connections: string; perEngine: string; browserCapacity: string; moreEngines: number }) =>
    `The fleet's ${p.engines} headless engine(s)${p.browsers > 0 ? ` and ${p.browsers} browser(s)` : ''} can hold ${p.capacity} ${p.transport} connections ` +
    `(an engine of a headless runner ${p.perEngine}, the most one was measured to hold${p.browsers > 0 ? `; a browser ${p.browserCapacity}` : ''}), not ${p.connections}: ` +
    `${p.moreEngines} more engine(s) would. Start more agents, or agents with more --workers, or lower the connections.`,
  restBrowserAgents: (p: { count: number }) =>
    `${p.count === 1 ? 'A browser agent is' : `${p.count} browser agents are`} in the session, but a REST scenario's engines sign with the Azure SignalR connection string's AccessKey, which is never given to a browser: run it with headless agents only (live-bench --agent), and close the browser agents' tabs or start a session without them.`,
  nobodyLeft: () =>
    'Every agent left while its clock was measured, and the lead\'s own workers do not take part: nothing would run. Include them, or invite agents again.',
  /** A run's credentials about to cross a plain-http control hub: said as a refusal, or as a warning. */
  plainControlRefused: (p: { controlUrl: string; what: string; allow: string }) =>
    `Nothing was sent: ${plainControl(p)}. Serve the control hub over https, or send anyway with ${p.allow}.`,
  plainControlWarning: (p: { controlUrl: string; what: string; refuse: string }) => {
    const plain = plainControl(p);
    return `${plain[0]!.toUpperCase()}${plain.slice(1)}. Serve it over https, or stop such runs with ${p.refuse}.`;
  },
  /** A session secret of the wrong length or alphabet (never quoting it). */
  secretMalformed: (p: { min: number; max: number; alphabet: string; length: number }) =>
    `a session secret is ${p.min} to ${p.max} letters and digits, chosen at random (e.g. ${drawSecret(p.alphabet)}); the one given is not (${p.length} characters)`,
  secretGuessable: (p: { alphabet: string }) =>
    `the session secret given repeats too few characters to be unguessable: choose it at random (e.g. ${drawSecret(p.alphabet)})`,
  /** An agent that presented no secret, or the wrong one: said to it and to the lead. */
  wrongSecret: (p: { name: string; presented: boolean }) =>
    `Agent "${p.name}" was refused: it ${p.presented ? 'presented a session secret that is not this session\'s' : 'presented no session secret'}, and the session code alone does not admit an agent. It received nothing of the run. Start it with the agent command this lead shows (its --session-secret).`,
};

function plainControl(p: { controlUrl: string; what: string }): string {
  return `the control hub ${p.controlUrl} is plain http: ${p.what} will cross it to the agents in plain text, readable by anyone on the network between this lead, the hub and the agents`;
}
