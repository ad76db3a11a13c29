/**
 * The words of a fleet session from the command line: an agent joining and leaving (agent.ts)
 * and a headless lead opening a session and waiting for its agents (lead.ts). Pure.
 */

export const SESSION_WORDS = {
  // An agent (agent.ts).
  turnedAway: (p: { reason: string }) => `live-bench: the lead turned this agent away: ${p.reason}`,
  sessionClosed: () => 'live-bench: the dashboard (or lead) closed the session; leaving.',
  /** The figures of a run cut short, printed by the agent because no dashboard counted them. */
  soFarAtSessionEnd: (p: { line: string }) => `${p.line} (up to the session's end; the dashboard or lead did not count these figures)`,
  soFarAtControlLoss: (p: { line: string }) => `${p.line} (up to the loss of the control hub; the dashboard or lead never got these figures)`,
  controlLostLeaving: (p: { message: string | null }) => `live-bench: lost the control hub${p.message !== null ? `: ${p.message}` : ''}; leaving.`,
  notOpenYet: (p: { session: string; controlUrl: string; seconds: number }) => `live-bench: session ${p.session} is not open yet at ${p.controlUrl}; trying again for up to ${p.seconds} s (--join-timeout).`,
  couldNotJoin: (p: { session: string; why: string }) => `could not join session ${p.session}: ${p.why}`,
  joined: (p: { name: string; session: string; controlUrl: string; engines: string }) => `live-bench: agent "${p.name}" joined session ${p.session} at ${p.controlUrl} with ${p.engines}; waiting for the dashboard to start a run (Ctrl+C to leave).`,
  /** JoinSession missing: the URL is another hub (`benchmarkHub`: the benchmark hub's path). */
  noJoinSession: (p: { controlUrl: string; benchmarkHub: boolean; control: string }) => `${p.controlUrl} has no JoinSession: ${p.benchmarkHub ? 'that is the benchmark hub, not the control hub' : 'that hub is not the control hub'}. Point --agent at the hub-sample's control hub, ${p.control}.`,

  // A headless lead (lead.ts).
  noSecretAsked: () => 'live-bench: warning: the agents are asked for no session secret (--session without --session-secret): any agent given the code receives the run\'s credentials. Choose a secret too and give it to the lead and each agent with --session-secret.',
  controlLost: (p: { controlUrl: string; message: string | null }) => `live-bench: lost the control hub at ${p.controlUrl}${p.message !== null ? ` (${p.message})` : ''}: the agents are no longer reachable.`,
  /** OpenSessionWithCode or OpenSession missing: not the control hub, or one older than chosen codes. */
  notControlHub: (p: { controlUrl: string }) => `${p.controlUrl} is not the hub-sample's control hub, or one too old to take a chosen code: point --control at its /control`,
  noSession: (p: { controlUrl: string; why: string }) => `the control hub at ${p.controlUrl} opened no session: ${p.why}`,
  waiting: (p: { session: string; controlUrl: string; seconds: number; agents: number }) => `live-bench: session ${p.session} open on ${p.controlUrl}; waiting up to ${p.seconds} s for ${p.agents} agent(s). Start each with:`,
  /** Why fewer agents came than asked for. */
  whyFewer: (p: { interrupted: boolean; closed: string | null; seconds: number }) => (p.interrupted
    ? 'the lead was interrupted while it waited'
    : p.closed !== null ? `the control hub closed the connection (${p.closed})` : `none more came within ${p.seconds} s (--agents-timeout)`),
  tooFew: (p: { joined: number; agents: number; session: string; names: string; why: string; controlUrl: string }) => `only ${p.joined} of ${p.agents} agent(s) joined session ${p.session}${p.names ? ` (${p.names})` : ''}: ${p.why}. Nothing was run. Start the missing agent(s) with the command above, check that they reach ${p.controlUrl}, or raise --agents-timeout.`,
  extra: (p: { extra: number; agents: number }) => `live-bench: ${p.extra} more agent(s) joined than the ${p.agents} asked for; they take no part.`,
  measuringClocks: (p: { joined: number; names: string }) => `live-bench: ${p.joined} agent(s) joined (${p.names}); measuring their clocks.`,
  cannotStart: (p: { error: string }) => `the run cannot start: ${p.error}`,
  leftWhileMeasured: (p: { left: number; remaining: number }) => `live-bench: warning: ${p.left} agent(s) left while their clocks were measured; the run goes on with ${p.remaining}.`,
} as const;
