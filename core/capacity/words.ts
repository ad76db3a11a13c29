/**
 * The words of a capacity search: its answer (what held, where it broke, whose limit it was and
 * what to do), its stage's two sentences, its plan in a line, the problems of its settings and of
 * a search document read back, and the report's note on its steps. The search's logic (answer.ts,
 * stage.ts, settings.ts, step-judge.ts, capacity-result.ts) decides which and with what figures,
 * already formatted; only this file writes prose, so the page, the runner and the reports say it
 * alike. Pure.
 */

export const CAPACITY_WORDS = {
  // The answer (answer.ts).
  clientLimit: (p: { reason: string; held: string; advice: string }) => `The client set this limit, not the service: ${p.reason}. The service held at least ${p.held}; its capacity is higher or unknown. ${p.advice}`,
  unknownSide: (p: { reason: string; heldStep: number | null }) => `Which side broke is unknown: ${p.reason}. ${p.heldStep !== null ? `The load of step ${p.heldStep} held` : 'No step held'}, but this is not a capacity of the service until a run shows which side failed. Read the errors of the step that broke, read the server's metrics with the search, or run the client from another machine.`,
  hubGone: (p: { after: number; sentence: string }) => `The hub stopped accepting connections after step ${p.after}: ${p.sentence}`,
  heldBeforeFault: (p: { step: number; load: string }) => ` Step ${p.step} (${p.load}) had held before it; that is not a capacity, since the search never reached the service's load.`,
  faultHeadline: (p: { step: number; load: string; sentence: string }) => `No capacity: the search stopped at step ${p.step} (${p.load}). ${p.sentence}`,
  faultBroke: (p: { step: number; setup: boolean; before: string }) => `Step ${p.step} failed ${p.setup ? 'because of the set-up' : 'because of the service, for a cause other than load'}.${p.before}`,
  hubGoneAdvice: () => 'Read the hub\'s log and its host\'s at the time of that step (a crash, a restart, out of memory), then search again.',
  faultAdvice: (p: { advice: string }) => `What to do: ${p.advice}`,
  firstStepBroke: (p: { load: string; limitedBy: string | null }) => `Even the first step (${p.load}) broke the guide's rule${p.limitedBy === 'client' ? ', and the client set that limit' : p.limitedBy === 'unknown' ? ', and which side failed is unknown' : ''}: lower the ramp's start.`,
  searching: () => 'Searching: no step has held yet.',
  nothingJudged: () => 'No capacity found: no step could be judged.',
  endedUnjudged: (p: { step: number; load: string; why: string; heldStep: number; held: string }) => `No capacity: the search ended at step ${p.step} (${p.load}), which could not be judged, before any step broke.${p.why} Step ${p.heldStep} had held ${p.held} msg/s.`,
  /** The headline's first words, by whose limit it was and how far the search went. */
  heldPrefix: (p: { limitedBy: string | null; atMax: boolean; running: boolean }) => (p.limitedBy === 'client' ? 'Client-limited: this client held' : p.limitedBy === 'unknown' ? 'Cause unknown: held' : p.atMax ? 'Held every step up to the maximum:' : p.running ? 'So far held' : 'Held'),
  headline: (p: { prefix: string; held: string; what: string; connections: string; p99: string; share: string; atMax: boolean }) => `${p.prefix} ${p.held} msg/s of ${p.what} with ${p.connections} connections at p99 ${p.p99} (${p.share} under 1 s)${p.atMax ? ' (the capacity is above this: raise the maximum)' : ''}.`,
  tierUnpublished: (p: { edition: string; scenario: string; tier: string }) => `The guide (${p.edition}) publishes no ${p.scenario} rate for ${p.tier}.`,
  tierShare: (p: { percent: string; tier: string; scenario: string; published: string; edition: string }) => `That is ${p.percent} of ${p.tier}'s published ${p.scenario} rate (${p.published} msg/s, ${p.edition}).`,
  broke: (p: { step: number; load: string; limitedBy: string | null; on: string; reason: string; confirmation: string }) =>
    `Broke at step ${p.step} (${p.load}), ${p.limitedBy === 'client' ? 'because of the client' : p.limitedBy === 'unknown' ? 'for a cause that is unknown' : 'because of the service'}${p.on}: ${p.reason}. ${p.confirmation}`.trimEnd(),
  /** Where a step over several instances broke, said after "Broke at step …": " on every instance", " on instance 2, http://b/hub (61.20% under 1 s)". */
  onEveryInstance: () => ' on every instance',
  onInstances: (p: { instances: readonly { number: number; url: string; share: string }[] }) => ` on ${p.instances.map((i) => `instance ${i.number}, ${i.url} (${i.share} under 1 s)`).join(' and ')}`,
  stepUnjudged: (p: { step: number; load: string; reason: string }) => `Step ${p.step} (${p.load}) could not be judged: ${p.reason}.`,
  noBreakYet: () => 'No step has broken yet.',
  noBreak: (p: { max: string; unit: string }) => `No step broke up to the maximum of ${p.max} ${p.unit}.`,
  confirmed: (p: { step: number | string }) => `Confirmed: the same load broke again at step ${p.step}.`,
  heldAgain: (p: { step: number | string }) => `Unconfirmed: the same load held when run again at step ${p.step}, so the limit lies near this load rather than at it; run the search again to be sure.`,
  unreachedAgain: (p: { step: number; connections: number }) => `Unconfirmed: at step ${p.step} the service opened no connection (${p.connections} asked for), so the search ended there.`,
  confirming: () => 'Running it once more to confirm.',
  notRunAgain: () => 'Unconfirmed: the search ended before the load was run again.',
  /** What to do when the client set the limit (answer.ts clientAdvice). */
  addAgents: () => 'Add agents (other browsers or headless runners) to carry the load, or run the search from the headless runner.',
  raiseOpenFiles: () => 'Raise the runner\'s open-file limit (ulimit -n 65535 in the shell that starts it)',
  widenPorts: () => 'widen the ephemeral port range (net.ipv4.ip_local_port_range)',
  engineLost: () => 'see why the engine was lost (out of heap memory: give node more, e.g. --max-old-space-size, or spread the connections over more --workers)',
  /** The ways past this client, joined with "; ", then "or" the spread; its first letter raised. */
  clientFixes: (p: { fixes: readonly string[] }) => `${p.fixes.join('; ')}; or ${SPREAD}`.replace(/^./, (c) => c.toUpperCase()),
  moreWorkers: () => `Give the runner more --workers if this machine has idle cores, or ${SPREAD}`,

  // The stage's sentence of where it broke (stage.ts).
  unjudgedEnd: () => 'Nothing broke before the search ended, so this is not a capacity: search again.',
  setupFault: () => 'Nothing was measured: fix the set-up and search again.',
  serviceFault: () => 'The service failed for a cause other than load, so this is not a capacity.',
  nothingBrokeYet: () => 'Nothing has broken yet.',
  nothingBroke: (p: { max: string; unit: string }) => `Nothing broke up to the maximum, ${p.max} ${p.unit}: raise it to find the limit.`,
  /** Where the search broke and whose limit it was; `where` is "between 424 and 500 msg/s" or "at 500 msg/s". */
  brokeFirst: (p: { limitedBy: string | null; where: string; confirmed: boolean | null | undefined; running: boolean }) => {
    const check = p.confirmed === true ? '' : p.confirmed === false ? ' (unconfirmed: that load held when run again)' : p.running ? ' (running it again to confirm)' : ' (unconfirmed)';
    if (p.limitedBy === 'unknown') return `Something broke ${p.where}${check}; which side is unknown.`;
    return `${p.limitedBy === 'client' ? 'This client' : 'The service'} broke first, ${p.where}${check}.`;
  },
  between: (p: { from: string; to: string; unit: string }) => `between ${p.from} and ${p.to} ${p.unit}`,
  at: (p: { load: string; unit: string }) => `at ${p.load} ${p.unit}`,
  /** The stage's title: what held (`load`: "400 msg/s of 2.0 KB echo: 40% of Unit1"), by whose limit and how far. */
  holds: (p: { load: string; limitedBy: string | null; running: boolean; atMax: boolean }) => {
    if (p.limitedBy === 'client') return `${p.running ? 'So far this client holds' : 'This client held'} ${p.load}; the service's capacity is higher or unknown.`;
    if (p.limitedBy === 'unknown') return `${p.running ? 'So far holds' : 'Holds'} ${p.load}; which side broke is unknown.`;
    if (p.running) return `So far holds ${p.load}.`;
    if (p.atMax) return `Holds at least ${p.load}: every step held.`;
    return `Holds ${p.load}.`;
  },

  // The search's plan in a line (next-load.ts).
  plan: (p: { steps: string; stepSec: string; settleSec: string; start: string; max: string; unit: string; step: string; bisections: number; bisectText: string }) =>
    `a search of at most ${p.steps} steps of ${p.stepSec} s (the first ${p.settleSec} s of each not judged): ` +
      `${p.start} to ${p.max} ${p.unit} by ${p.step} until a step breaks the guide's rule, ${p.bisections === 0 ? 'then' : `then ${p.bisectText} bisection${p.bisections === 1 ? '' : 's'} and`} the break run again`,

  // The settings' problems (settings.ts).
  rampUnknown: (p: { ramps: readonly string[]; is: string }) => `Ramp must be ${p.ramps.join(' or ')}, but is ${p.is}. Use connections to add connections per step, rate to raise the send rate of a fixed connection count.`,
  startAboveMax: (p: { start: number; max: number }) => `Ramp start (${p.start}) is above the maximum (${p.max}): lower the start or raise the maximum.`,
  noDrops: (p: { dropAtSec: number }) => `A capacity search cannot plan drops (Drop at ${p.dropAtSec} s): each step would break by the drop it planned, and the search would call that the service's capacity. Remove the drop (--drop-at), or measure drops with a single run.`,
  settleTooLong: (p: { settleSec: number; stepSec: number }) => `Settle (${p.settleSec} s) must be shorter than the step duration (${p.stepSec} s): nothing would be judged. Lower the settle or lengthen the steps.`,
  rateTooFast: (p: { rate: string; senders: string; intervalMs: string; minMs: number; needed: string }) => `A rate of ${p.rate} msg/s from ${p.senders} sending connections needs a send interval of ${p.intervalMs} ms, below the ${p.minMs} ms timers can keep. Raise the connections to at least ${p.needed} or lower the maximum rate.`,

  // A search's step judged (step-judge.ts).
  scheduleUnmeasured: (p: { measured: boolean }) => (p.measured ? 'nothing says why' : 'the client\'s schedule was never measured and nothing says why'),
  /** Why receptions were never sent, each said after its count. */
  notSent: {
    backedUp: 'held back by a connection full of unsent messages',
    reconnecting: 'due while their connection reconnected',
    writeFailed: 'failed to write',
    disconnected: 'due on connections that were closed or never opened',
    clientBehind: 'due after the client fell behind',
    receiverAbsent: 'owed to receivers that never connected or never joined their group',
    workerLost: 'due on a worker of the client that was lost',
    runStopped: 'due after the run was stopped for a failure',
  },

  // A search document read back (capacity-result.ts).
  notJson: (p: { message: string }) => `This is not JSON (${p.message}). Choose a file that SignalR Live Bench wrote.`,
  notCapacity: (p: { format: string; expected: string }) => `This JSON is not a SignalR Live Bench capacity search (its "format" is ${p.format}, expected "${p.expected}").`,
  unreadableVersion: (p: { version: string; readable: readonly number[] }) => `This capacity search was written in format version ${p.version}; this version of the tool reads versions ${p.readable.join(' and ')}.`,
  missingPart: (p: { key: string }) => `This capacity search has no "${p.key}": it is incomplete or damaged.`,
  stepsNotList: () => 'This capacity search\'s "steps" is not a list: it is incomplete or damaged.',

  // The report's section (capacity-export.ts).
  stepsTable: () => 'Every step of the search',
  stepsNote: (p: { stepSec: number; settleSec: number }) => `Each step held ${p.stepSec} s, of which the first ${p.settleSec} s were not judged; a step holds when at least 99% of its planned receptions arrived in under 1 s. Held: the load a step kept by that rule, in msg/s.`,
};

/** The way past a client's limit every piece of advice ends with. */
const SPREAD = 'add runner agents on other machines, so the client is not the bottleneck.';
