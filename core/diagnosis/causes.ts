/**
 * The catalog of causes a run can end with, and the side each puts the limit on. One cause per
 * run, named from its evidence (diagnose.ts); the words are in words.ts. Pure.
 *
 * Sides:
 * - `service`: the hub, the service or what runs under it (its backplane) failed or was at its limit;
 * - `client`: this client ran out of its own resources or fell behind its schedule;
 * - `setup`: something the user must change (the URL, the token, the profile, CORS, a proxy, an
 *   instance listed twice) before any load can be measured;
 * - `unknown`: the evidence does not decide;
 * - `none`: nothing failed (the run held, it was stopped before its end with nothing wrong, or
 *   what failed was the drop the run planned, which is what it measures).
 *
 * Only load makes a capacity: a capacity search whose step broke for a fault (isFault) ends with
 * that cause (core/capacity).
 */
export const CAUSES = {
  held: 'none',
  incomplete: 'none',
  plannedDrop: 'none',
  load: 'service',
  clientLimit: 'client',
  bothLimits: 'unknown',
  hubCrashed: 'service',
  hubStalled: 'service',
  backplaneDown: 'service',
  serviceRefused: 'service',
  restFailed: 'service',
  unreachable: 'setup',
  tlsUntrusted: 'setup',
  authRefused: 'setup',
  headersTooLarge: 'setup',
  corsBlocked: 'setup',
  notAHub: 'setup',
  negotiationNeeded: 'setup',
  proxyNoUpgrade: 'setup',
  noStickySessions: 'setup',
  hubMethodRefused: 'setup',
  restRefused: 'setup',
  profileMismatch: 'setup',
  textNotFound: 'setup',
  messageTooLarge: 'setup',
  sameInstance: 'setup',
  unknown: 'unknown',
} as const satisfies Record<string, DiagnosisSide>;

export type DiagnosisSide = 'service' | 'client' | 'setup' | 'unknown' | 'none';
export type CauseId = keyof typeof CAUSES;
export const CAUSE_IDS = Object.keys(CAUSES) as CauseId[];

export function sideOf(cause: CauseId): DiagnosisSide {
  return CAUSES[cause];
}

/** Where the cause is explained: docs/diagnosis.md#<anchor>. */
export function docsAnchorOf(cause: CauseId): string {
  return `docs/diagnosis.md#${cause.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The run's answer to "why": one cause, its side, one sentence, what to do, and the evidence
 *  that shows it. Written to the run's document and rendered unchanged by every view. */
export interface Diagnosis {
  cause: CauseId;
  side: DiagnosisSide;
  sentence: string;
  advice: string;
  /** docs/diagnosis.md#… */
  docs: string;
  /** The recorded facts the cause was named from, worded ("100 connects answered HTTP 503 on the WebSocket upgrade"). */
  evidence: string[];
}

/** True for the one cause that makes a capacity: the service at its load. */
export function isLoad(diagnosis: Pick<Diagnosis, 'cause'>): boolean {
  return diagnosis.cause === 'load';
}

/**
 * True for a cause that ends a capacity search with it instead of a capacity: a set-up mistake,
 * or a service that failed otherwise than by carrying its load (crashed, frozen, its backplane
 * lost). A service that refused connects, or failed REST API sends, with 5xx or 429 at a load
 * broke under that load (a service out of connection units, a gateway throttling): a break,
 * named with its status. The
 * client's limit, both sides and `unknown` stay the search's own findings.
 */
export function isFault(diagnosis: Pick<Diagnosis, 'cause' | 'side'>): boolean {
  return diagnosis.side === 'setup' || (diagnosis.side === 'service' && diagnosis.cause !== 'load' && diagnosis.cause !== 'serviceRefused' && diagnosis.cause !== 'restFailed');
}

/** "the service", "this client", "the set-up", "unknown", for headings. */
export const SIDE_LABELS: Record<DiagnosisSide, string> = {
  service: 'the service',
  client: 'the client',
  setup: 'the set-up',
  unknown: 'unknown',
  none: 'nothing failed',
};

/** The diagnosis as lines for a terminal or a plain report: "Why (the service): …", "What to do: …", "Evidence: …". */
export function diagnosisLines(diagnosis: Diagnosis, evidenceShown = 4): string[] {
  const evidence = diagnosis.evidence.slice(0, evidenceShown);
  return [
    diagnosis.side === 'none' ? `Why: ${diagnosis.sentence}` : `Why (${SIDE_LABELS[diagnosis.side]}): ${diagnosis.sentence}`,
    `What to do: ${diagnosis.advice}`,
    ...(evidence.length > 0 ? [`Evidence: ${evidence.join('; ')}`] : []),
  ];
}

/**
 * Whether the general word on which side set the limit (core/result limit.ts: the client's schedule
 * against the server's load) belongs beside this diagnosis. Always, but when it says the side
 * "cannot be told" (`unknown`) while the diagnosis names a specific cause: a generic sentence is
 * never shown beside a specific cause that was recorded.
 */
export function limitSentenceApplies(diagnosis: Pick<Diagnosis, 'cause'> | null, limitSide: string): boolean {
  if (diagnosis === null || limitSide !== 'unknown') return true;
  return (['held', 'incomplete', 'plannedDrop', 'load', 'clientLimit', 'bothLimits', 'unknown'] as CauseId[]).includes(diagnosis.cause);
}
