/**
 * What a run recorded that can say why it failed: plain data, gathered once from the run's own
 * document (core/result/run-evidence.ts) and read by the one diagnosis (diagnose.ts). Nothing here
 * is a judgement: counts, status codes, close reasons, the hub's own words, the server's metrics
 * and the client's own health, each as recorded. Pure.
 */
import type { ConnectCauseCounts } from '../client/index.ts';
import type { LimitExplanation } from '../server-metrics/index.ts';

/** One distinct failure the engine recorded (core/execution/worker-messages.ts ErrorSample): its kind
 *  (negotiate, transport, connect, handshake, join, send, closed, protocol), its words (the
 *  client library's and the hub's, secrets scrubbed) and how often it happened. */
export interface FailureRecord {
  kind: string;
  message: string;
  count: number;
}

/** A hub's own word on its health, read at the run's end from its origin's /healthz (the
 *  hub-sample answers 503 with the reason while its backplane is lost; other apps may serve
 *  none: 404, or no answer). */
export interface HealthCheck {
  url: string;
  /** The HTTP status; null when nothing answered in time. */
  status: number | null;
  /** The answer's first characters (plain text), or why there was none. */
  text: string;
}

/** How the run ended, with the code of a failure the coordinator named (core/outcome/outcome.ts). */
export interface OutcomeEvidence {
  kind: 'running' | 'finished' | 'stopped' | 'failed' | 'interrupted';
  /** noConnection: nothing opened; hubRefused: the hub refused the scenario's method; neverCalled:
   *  the profile's receive method was never called; textNotFound: it was called, never with this
   *  run's text where the profile reads it; allClosed: every connection closed with Reconnect off.
   *  Absent for other endings and in runs kept before codes. */
  code?: 'noConnection' | 'hubRefused' | 'neverCalled' | 'textNotFound' | 'allClosed';
  /** The coordinator's words for a failed run (the hub's refusal quoted). */
  reason?: string;
  /** textNotFound: what the calls carried and where the text was instead. */
  textNotFound?: TextMismatch;
}

/** A receive method the hub called, never with this run's text where the profile reads it. */
export interface TextMismatch {
  /** The profile's receive method, and how often the hub called it (warm-up included). */
  method: string;
  calls: number;
  /** Where the profile reads: receive.arg (an index, or a path such as "0.message"). */
  place: number | string;
  /** What the first call carried there (the first while sending), at most 40 characters, secrets scrubbed. */
  sample: string;
  /** Where this run's text was in those calls instead, as receive.arg takes it; null when in none. */
  foundAt: number | string | null;
}

/** The server's own metrics as read beside the run; null when they were not read. */
export interface ServerEvidence {
  /** Readings that answered. */
  answered: number;
  /** Readings that got no answer after at least one had (a hub that stopped answering). */
  unansweredAfterAnswers: number;
  /** Highest CPU share while sending, % of all cores; null when unknown. */
  peakCpuPercent: number | null;
  /** True when a reading showed the hub had restarted (its counters went down). */
  restarted: boolean;
  /** True when a reading showed the hub's backplane down (a backplane-up gauge at 0). */
  backplaneDown: boolean;
}

/** The client's own side (core/client): its schedule and its own limits, worded to follow "the client". */
export interface ClientEvidence {
  /** true kept, false fell behind, null unknown (no second reported). */
  keptSchedule: boolean | null;
  /** How it fell behind or ran out of its own resources, worded to follow "the client". */
  limits: string[];
}

export interface RunEvidence {
  outcome: OutcomeEvidence;
  /** The guide's verdict (core/outcome/outcome.ts). */
  verdict: 'pass' | 'fail' | 'none';
  /** Receptions planned, and what became of them once drained (lost is null before). */
  planned: number;
  lost: number | null;
  notSent: number;
  /** Arrived 1 s or more after their planned time (after the drain included). */
  late: number;
  connections: number;
  connectionsOpened: number;
  connectionsFailed: number;
  /** Connections lost during the run, and those that came back. */
  disconnects: number;
  reconnects: number;
  sent: number;
  received: number;
  /** Calls of the receive method that were not the tool's messages. */
  unsolicited: number;
  /** Failed connects by cause (core/client/connect-causes.ts). */
  connectCauses: ConnectCauseCounts;
  /** Every distinct failure, most frequent first. */
  failures: FailureRecord[];
  /** Sending seconds in a row at the run's end none of whose planned receptions ever arrived (in
   *  time, late or after the drain), after some had: a hub that stopped delivering, not a slow one. */
  silentSecondsAtEnd: number;
  /** Engines lost mid-run, by whose loss it was (core/outcome/worker-loss.ts). */
  workersLost: { client: number; service: number; unknown: number };
  /** Connects given up because the hub had stopped answering connects mid-ramp. */
  stoppedAnsweringConnects: number;
  client: ClientEvidence;
  server: ServerEvidence | null;
  /** Which side set the limit by the client's schedule and the server's load (core/result/limit.ts). */
  limit: LimitExplanation;
  /** The run's settings that change what a failure means. */
  settings: {
    endpointUrl: string;
    transport: string;
    /** Between two sends of a connection, ms: seconds without arrivals are normal when it is long. */
    sendIntervalMs: number;
    /** The run's message size, bytes: a bare close over SignalR's default limit is the size. */
    messageBytes: number;
    skipNegotiation: boolean;
    hasToken: boolean;
    reconnect: boolean;
    /** True when the run planned drops: its closed connections are the experiment, not a fault. */
    plannedDrop: boolean;
    /** The hub profile's receive method; null for the bundled contract. */
    receiveMethod: string | null;
    /** Endpoints listed more than once under different spellings (the same instance). */
    sameInstance: string[] | null;
    /** True when a browser ran it (the dashboard): where a token or a header goes differs. */
    browser: boolean;
  };
  /** With several hub instances: each one's connections, in the endpoints' order; empty for one. */
  instances: { endpointUrl: string; opened: number; failed: number }[];
  /** The hubs' /healthz at the run's end, when the run did not pass and it was read (the runner). */
  health: HealthCheck[];
  /** In a browser, when a negotiate failed without a status: whether the endpoint's origin
   *  answered a no-cors request (true: something answers there, so CORS refused the page;
   *  false: nothing answers); null when not probed. */
  originAnswered: boolean | null;
}
