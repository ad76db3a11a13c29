/**
 * What in a run shows the client hit its own limits, besides falling behind its schedule
 * (client-schedule.ts): an engine thread or agent lost mid-run, connections it could not open
 * for want of its own resources (EMFILE, EADDRNOTAVAIL, … in connect-causes.ts), a browser's
 * queue that held connections until they timed out, or more connections than a browser allows.
 * Each reason is worded to follow "the client …". Pure; the run's limit (server-metrics/run-limit.ts)
 * and a capacity step's judgement (capacity/step-judge.ts) both read it, so they agree.
 */
import { causesText, failuresOfSide, type ConnectCauseCounts } from './connect-causes.ts';
import { CLIENT_WORDS } from './words.ts';

export interface ClientEvidenceInput {
  /** Connections the run asked for. */
  connections: number;
  connectionsFailed: number;
  /** Failed connects by cause; absent in runs kept before causes were counted. */
  connectCauses?: ConnectCauseCounts;
  /** Engines of the run (worker threads, Web Workers, agents' threads), whether each was lost and
   *  whose loss it was (core/outcome/worker-loss.ts; absent: the client's). An agent's thread whose
   *  reports stopped together with the control hub is not the client's. */
  workers: readonly { lost: boolean; lostSide?: 'client' | 'service' | 'unknown' }[];
  /** Why engines failed, worded by the coordinator ("Worker 2 failed and was stopped: …"). */
  workerFailures: readonly string[];
  /** Most connections the client can hold (a browser's cap); null or absent when none is known. */
  connectionCap?: number | null;
}

export function clientLimitReasons(input: ClientEvidenceInput): string[] {
  const reasons: string[] = [];
  // Failures are worded one per lost worker; those of workers not the client's are left out.
  const notOurs = input.workers.filter((w) => w.lost && (w.lostSide ?? 'client') !== 'client').length;
  const lost = Math.max(input.workers.filter((w) => w.lost && (w.lostSide ?? 'client') === 'client').length, input.workerFailures.length - notOurs);
  if (lost > 0) {
    const why = ownFailure(input)?.replace(/^Worker \d+ failed and was stopped: /, '').replace(/\. Its figures up to then are kept\.$/, '');
    reasons.push(CLIENT_WORDS.lostEngines({ lost, engines: Math.max(lost, input.workers.length), why }));
  }
  // A setting of the client's (skip negotiation) that the hub refused is the client's, not a resource.
  const bySetting = input.connectCauses?.negotiationSkipped ?? 0;
  const ownFailures = failuresOfSide(input.connectCauses, 'client') - bySetting;
  if (ownFailures > 0) reasons.push(CLIENT_WORDS.ownResources({ failed: ownFailures, causes: causesText({ ...input.connectCauses, negotiationSkipped: 0 }, 'client') }));
  if (bySetting > 0) reasons.push(CLIENT_WORDS.negotiationSkipped({ failed: bySetting }));
  const cap = input.connectionCap ?? null;
  if (cap !== null && input.connections > cap && input.connectionsFailed > 0) {
    reasons.push(CLIENT_WORDS.aboveBrowserCap({ connections: input.connections, cap, failed: input.connectionsFailed }));
  }
  return reasons;
}

/** The first failure worded for a lost worker of the client's own ("Worker 3 …" whose worker is the client's loss). */
function ownFailure(input: ClientEvidenceInput): string | undefined {
  return input.workerFailures.find((failure) => {
    const index = Number(/^Worker (\d+)/.exec(failure)?.[1] ?? 0) - 1;
    return (input.workers[index]?.lostSide ?? 'client') === 'client';
  });
}
