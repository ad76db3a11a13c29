/**
 * One diagnosis from a run's evidence: the cause (causes.ts), its side, one sentence, what to do
 * and the evidence that shows it. The one place a run's "why" is decided; the runner, the page,
 * Present, History, comparisons and the reports render its result unchanged. Pure.
 *
 * The rules go from the most specific evidence to the least, and the first that holds names the
 * cause: an instance listed twice; a pass; refusals whose status or words name a set-up mistake
 * (431, 401/403, a hub that needs negotiation, "No Connection with that ID", a certificate, a
 * name that does not resolve, a path with no hub, a proxy that drops the upgrade, CORS) or the
 * service (5xx, 429, 408, a lost backplane); the hub's refusal of the scenario's method or a
 * receive method it never calls; a hub that went away (connections closed and connects refused,
 * or a restart) or stopped answering (metrics unanswered, relays stopped, nothing arriving at
 * the end); the client's own limits; and only then load, when the client kept its schedule or
 * the server's metrics show it saturated. What none of these decides is `unknown`, said so.
 */
import { causesText, failuresOfSide } from '../client/index.ts';
import { formatCount } from '../format.ts';
import { CAUSES, docsAnchorOf, type CauseId, type Diagnosis } from './causes.ts';
import type { RunEvidence } from './evidence.ts';
import {
  BACKPLANE_WORDS, BARE_CLOSE_WORDS, BROWSER_FETCH_WORDS, DEFAULT_MAX_RECEIVE_BYTES, HUB_CLOSE_WORDS, MISSING_METHOD_WORDS, NOT_STICKY_WORDS, SERVER_TIMEOUT_WORDS, TLS_WORDS, TOO_LARGE_WORDS, UNRESOLVED_WORDS,
  CONNECT_KINDS, REST_CALL_WORDS, connectStatuses, hubWords, matching, methodOf, type StatusCount,
} from './failures.ts';
import { EVIDENCE, QUOTE_WORDS, STALL_WORDS, WORDS, type Facts } from './words.ts';

/** Sending seconds at the end of a run none of whose messages ever arrived, that show a hub which
 *  stopped delivering rather than a slow one: at least this many, and three send intervals. */
export const SILENT_SECONDS_MIN = 2;

interface Finding {
  cause: CauseId;
  facts?: Partial<Facts>;
  /** The evidence that names it, first; the run's other recorded facts follow. */
  evidence?: string[];
}

export function diagnose(evidence: RunEvidence): Diagnosis {
  const finding = findCause(evidence);
  const facts: Facts = { url: evidence.settings.endpointUrl, transport: evidence.settings.transport, browser: evidence.settings.browser, hasToken: evidence.settings.hasToken, ...finding.facts };
  const words = WORDS[finding.cause];
  const lines = [...(finding.evidence ?? []), ...recordedFacts(evidence)];
  return {
    cause: finding.cause,
    side: CAUSES[finding.cause],
    sentence: words.sentence(facts),
    advice: words.advice(facts),
    docs: docsAnchorOf(finding.cause),
    evidence: [...new Set(lines)],
  };
}

function findCause(e: RunEvidence): Finding {
  if (e.settings.sameInstance && e.settings.sameInstance.length > 1) return { cause: 'sameInstance', facts: { endpoints: e.settings.sameInstance } };
  if (e.verdict === 'pass') return { cause: 'held' };
  // A REST API's refusal names the key or the hub before the connects it also refused; its
  // failures under load come after a hub that went away, which fails them too.
  return restCalls(e, 'refused') ?? refusal(e) ?? hubRefusal(e) ?? hubGone(e) ?? restCalls(e, 'failed') ?? dropCost(e) ?? clientOrLoad(e) ?? ending(e);
}

/** REST API sends (the serverless scenarios) the service refused (a 4xx: the set-up) or failed
 *  (429, 5xx, no answer: the service), named by the status of the most frequent. */
function restCalls(e: RunEvidence, which: 'refused' | 'failed'): Finding | null {
  const calls = e.failures.flatMap((failure) => {
    const read = REST_CALL_WORDS.exec(failure.message);
    if (!read) return [];
    const status = read[2] === undefined ? undefined : Number(read[2]);
    const refused = status !== undefined && status >= 400 && status < 500 && status !== 429;
    return refused === (which === 'refused') ? [{ failure, url: read[1]!, status }] : [];
  });
  const first = calls[0];
  if (!first) return null;
  const count = calls.filter((call) => call.status === first.status).reduce((sum, call) => sum + call.failure.count, 0);
  const said = / It said: (.*)$/.exec(first.failure.message)?.[1] ?? /got no answer \((.*?)\)/.exec(first.failure.message)?.[1];
  return {
    cause: which === 'refused' ? 'restRefused' : 'restFailed',
    facts: { url: first.url, status: first.status, count, quote: said?.replace(/\.+\s*$/, '').trim() },
    evidence: [EVIDENCE.failure(first.failure.kind, count, first.failure.message)],
  };
}

/** Connects refused in a way that names the cause: by status, by words, or by nothing answering. */
function refusal(e: RunEvidence): Finding | null {
  const statuses = connectStatuses(e.failures);
  const at = (test: (s: StatusCount) => boolean) => statuses.find(test) ?? null;
  const statusFinding = (cause: CauseId, s: StatusCount, extra: Partial<Facts> = {}): Finding => ({
    cause,
    facts: { status: s.status, stage: s.stage, count: s.count, of: e.connections, ...extra },
    evidence: [EVIDENCE.statuses(s.count, s.status, s.stage)],
  });
  const tooLarge = at((s) => s.status === 431);
  if (tooLarge) return statusFinding('headersTooLarge', tooLarge);
  const auth = at((s) => s.status === 401 || s.status === 403);
  if (auth) return statusFinding('authRefused', auth);
  const skipped = e.connectCauses.negotiationSkipped ?? 0;
  if (skipped > 0) return { cause: 'negotiationNeeded', facts: { count: skipped, status: at((s) => s.stage === 'upgrade')?.status }, evidence: [EVIDENCE.causes(causesText(e.connectCauses))] };
  const backplane = matching(e.failures, BACKPLANE_WORDS);
  if (backplane.first) return { cause: 'backplaneDown', facts: { quote: hubWords(backplane.first.message) }, evidence: [EVIDENCE.failure(backplane.first.kind, backplane.count, backplane.first.message)] };
  if (e.server?.backplaneDown) return { cause: 'backplaneDown', evidence: [EVIDENCE.backplaneGauge()] };
  const unhealthy = e.health.find((h) => h.status !== null && h.status >= 500 && BACKPLANE_WORDS.test(h.text));
  if (unhealthy) return { cause: 'backplaneDown', facts: { quote: unhealthy.text }, evidence: [EVIDENCE.health(unhealthy.url, unhealthy.status!, unhealthy.text)] };
  // On connects only: after a restart, a poll or a send of a connection the hub forgot says the same.
  const notSticky = matching(e.failures, NOT_STICKY_WORDS, CONNECT_KINDS);
  if (notSticky.first) return { cause: 'noStickySessions', facts: { count: notSticky.count }, evidence: [EVIDENCE.failure(notSticky.first.kind, notSticky.count, notSticky.first.message)] };
  // A hub answers an upgrade whose connection id it does not know with 404: negotiate (on the same
  // path) answered, so the id was made by another instance behind the same address.
  const unknownId = e.settings.skipNegotiation ? null : at((s) => s.stage === 'upgrade' && s.status === 404);
  if (unknownId) return statusFinding('noStickySessions', unknownId);
  const named = namedByWords(e);
  if (named) return named;
  const notAHub = at((s) => s.stage === 'negotiate' && s.status >= 400 && s.status < 500 && s.status !== 408 && s.status !== 429);
  if (notAHub) return statusFinding('notAHub', notAHub);
  const busy = at((s) => s.status >= 500 || s.status === 429 || s.status === 408);
  if (busy) return statusFinding('serviceRefused', busy, { quote: undefined });
  const upgrade = at((s) => s.stage === 'upgrade');
  if (upgrade && !e.settings.skipNegotiation) return statusFinding('proxyNoUpgrade', upgrade);
  return nothingAnswered(e);
}

/** Failures whose words name a set-up mistake: a certificate, a name, a page that is not a hub. */
function namedByWords(e: RunEvidence): Finding | null {
  const quoteOf = (found: ReturnType<typeof matching>): Finding['evidence'] => (found.first ? [EVIDENCE.failure(found.first.kind, found.count, found.first.message)] : []);
  const tls = matching(e.failures, TLS_WORDS);
  if (tls.first && e.connectionsOpened === 0) return { cause: 'tlsUntrusted', evidence: quoteOf(tls) };
  const unresolved = matching(e.failures, UNRESOLVED_WORDS);
  if (unresolved.first && e.connectionsOpened === 0) return { cause: 'unreachable', facts: { quote: QUOTE_WORDS.hostUnresolved() }, evidence: quoteOf(unresolved) };
  // Fetch refuses some well-known ports outright (1, 9, 25, 6000, …), in Node and in a page alike:
  // nothing was even tried.
  const badPort = matching(e.failures, /\bbad port\b|ERR_UNSAFE_PORT/i);
  if (badPort.first && e.connectionsOpened === 0) return { cause: 'unreachable', facts: { quote: QUOTE_WORDS.badPort() }, evidence: quoteOf(badPort) };
  const notJson = matching(e.failures, /not a SignalR hub at this URL|not valid JSON|Unexpected token/i, ['negotiate']);
  if (notJson.first && e.connectionsOpened === 0) return { cause: 'notAHub', evidence: quoteOf(notJson) };
  return null;
}

/** No connection opened because nothing answered, or (in a browser) CORS refused the page; with
 *  several instances, one that opened none while the others took theirs. */
function nothingAnswered(e: RunEvidence): Finding | null {
  const dead = e.instances.length > 1 && e.instances.some((i) => i.opened > 0) ? e.instances.find((i) => i.opened === 0 && i.failed > 0) : undefined;
  if (dead) return { cause: 'unreachable', facts: { url: dead.endpointUrl, quote: QUOTE_WORDS.othersOpened() }, evidence: [EVIDENCE.instanceDead(dead.endpointUrl, dead.failed), ...(causesText(e.connectCauses) ? [EVIDENCE.causes(causesText(e.connectCauses))] : [])] };
  if (e.connectionsOpened > 0) return null;
  const refused = (e.connectCauses.refused ?? 0) + (e.connectCauses.unreachable ?? 0);
  if (refused > 0) return { cause: 'unreachable', facts: { quote: QUOTE_WORDS.refused() }, evidence: [EVIDENCE.causes(causesText(e.connectCauses))] };
  // No connect answered at all: a host that drops them, or a hub stalled from the start (a capacity
  // search whose earlier steps connected says the hub stopped: core/capacity findingOf).
  const unanswered = (e.connectCauses.timedOut ?? 0) + (e.connectCauses.stoppedAnswering ?? 0);
  if (unanswered > 0) return { cause: 'unreachable', facts: { quote: QUOTE_WORDS.noConnectAnswered() }, evidence: [EVIDENCE.causes(causesText(e.connectCauses))] };
  const browserFetch = matching(e.failures, BROWSER_FETCH_WORDS);
  if (browserFetch.first) {
    const probe = e.originAnswered;
    const lines = [EVIDENCE.failure(browserFetch.first.kind, browserFetch.count, browserFetch.first.message), ...(probe === null ? [] : [EVIDENCE.probe(probe)])];
    if (probe === true) return { cause: 'corsBlocked', evidence: lines };
    if (probe === false) return { cause: 'unreachable', facts: { quote: QUOTE_WORDS.originSilent() }, evidence: lines };
    return { cause: 'unknown', facts: { quote: QUOTE_WORDS.browserSaysNeither() }, evidence: lines };
  }
  return null;
}

/** The hub refused the scenario's method, or never called the profile's receive method, or never with this run's text where the profile reads it. */
function hubRefusal(e: RunEvidence): Finding | null {
  if (e.outcome.code === 'neverCalled') return { cause: 'profileMismatch', facts: { method: e.settings.receiveMethod ?? undefined, count: e.sent }, evidence: e.outcome.reason ? [EVIDENCE.outcome(e.outcome.reason)] : [] };
  if (e.outcome.code === 'textNotFound') return { cause: 'textNotFound', facts: { method: e.settings.receiveMethod ?? undefined, mismatch: e.outcome.textNotFound }, evidence: [EVIDENCE.textless(e.sent, e.unsolicited)] };
  const refused = e.outcome.code === 'hubRefused' ? e.outcome.reason ?? '' : null;
  const missing = matching(e.failures, MISSING_METHOD_WORDS, ['join', 'send', 'protocol']);
  if (refused !== null || (missing.first && e.received === 0)) {
    const words = refused ? hubWords(refused) : hubWords(missing.first!.message);
    const method = methodOf(refused ?? missing.first?.message ?? '');
    return { cause: 'hubMethodRefused', facts: { quote: words, method }, evidence: refused ? [EVIDENCE.outcome(refused)] : [EVIDENCE.failure(missing.first!.kind, missing.count, missing.first!.message)] };
  }
  return null;
}

/**
 * A hub that went away (connections closed abruptly and most never came back, every one closed
 * with Reconnect off, most closed abruptly whether or not they came back, or a restart its
 * metrics show) or stopped answering (nothing received at
 * all in the last sending seconds, whose messages never arrived; or, with nothing received over
 * the run, its metrics unanswered; or most connections closed by the client's server timeout; or
 * agents' reports it stopped relaying). One late reading or one timed-out connection alone is
 * not a stall: a hub at its load answers slowly too.
 */
function hubGone(e: RunEvidence): Finding | null {
  if (e.connectionsOpened === 0 && e.outcome.kind === 'failed') return null;
  // A bare close is the size only when the messages were over SignalR's default limit: a hub's own
  // exception (a database timing out in OnConnectedAsync) closes the same way.
  const sized = matching(e.failures, TOO_LARGE_WORDS, ['closed', 'send']);
  const bare = matching(e.failures, BARE_CLOSE_WORDS, ['closed']);
  const tooLarge = sized.first ? sized : bare.first && e.settings.messageBytes > DEFAULT_MAX_RECEIVE_BYTES ? bare : null;
  if (tooLarge?.first) return { cause: 'messageTooLarge', facts: { quote: hubWords(tooLarge.first.message) }, evidence: [EVIDENCE.failure(tooLarge.first.kind, tooLarge.count, tooLarge.first.message)] };
  // The client's server timeout closes connections of a hub that froze; an abrupt close (1006, a
  // reset) is a hub or a network that went away; a close the hub sent with an error is a hub alive.
  const timedOut = matching(e.failures, SERVER_TIMEOUT_WORDS, ['closed']).count;
  const abrupt = e.failures.filter((f) => f.kind === 'closed' && !SERVER_TIMEOUT_WORDS.test(f.message) && !HUB_CLOSE_WORDS.test(f.message)).reduce((sum, f) => sum + f.count, 0);
  const neverBack = e.disconnects - e.reconnects;
  // Drops the run planned close connections by design: only a restart says the hub went.
  // Most connections closed abruptly went away with the hub even when they all came back (a hub
  // killed and restarted under Reconnect): the loss is its restart's, not a load's.
  const mostAbrupt = abrupt > timedOut && abrupt >= e.connectionsOpened / 2 && e.disconnects >= e.connectionsOpened / 2;
  const wentAway = e.server?.restarted === true || (!e.settings.plannedDrop && abrupt > timedOut && ((neverBack > 0 && (e.outcome.code === 'allClosed' || neverBack >= e.connectionsOpened / 2)) || mostAbrupt));
  if (wentAway) return crashed(e);
  const silent = silentAtEnd(e);
  const unanswered = e.server?.unansweredAfterAnswers ?? 0;
  // Frozen during the ramp: it stopped answering connects, delivered nothing at all on the
  // connections it had opened, and left its /healthz unanswered at the end. A hub at its load
  // answers slowly and delivers some of what it is sent; this one did neither, three ways.
  const healthSilent = e.health.filter((h) => h.status === null);
  const frozenInRamp = e.stoppedAnsweringConnects > 0 && e.connectionsOpened > 0 && e.sent > 0 && e.received === 0 && healthSilent.length > 0;
  const strong = [
    ...(silent ? [EVIDENCE.silent(e.silentSecondsAtEnd)] : []),
    ...(frozenInRamp ? [EVIDENCE.stoppedAnswering(e.stoppedAnsweringConnects), EVIDENCE.nothingReceived(e.sent), ...healthSilent.map((h) => EVIDENCE.health(h.url, h.status, h.text))] : []),
    ...(unanswered >= 2 && e.received === 0 && e.sent > 0 ? [EVIDENCE.unanswered(unanswered, e.server!.answered)] : []),
    ...(timedOut > 0 && timedOut >= e.connectionsOpened / 2 ? [EVIDENCE.serverTimeout(timedOut)] : []),
    ...(e.workersLost.service > 0 ? [EVIDENCE.workersLost(e.workersLost.service)] : []),
  ];
  if (strong.length === 0) return null;
  const supporting = [
    ...(unanswered > 0 ? [EVIDENCE.unanswered(unanswered, e.server!.answered)] : []),
    ...(timedOut > 0 ? [EVIDENCE.serverTimeout(timedOut)] : []),
    ...(e.stoppedAnsweringConnects > 0 && !frozenInRamp ? [EVIDENCE.stoppedAnswering(e.stoppedAnsweringConnects)] : []),
  ];
  return { cause: 'hubStalled', facts: { seconds: silent ? e.silentSecondsAtEnd : undefined, quote: STALL_WORDS.quote({ timedOut, stayedOpen: e.disconnects === 0 && e.connectionsOpened > 0 && silent, metrics: unanswered > 0, connects: e.stoppedAnsweringConnects > 0, health: frozenInRamp, relays: e.workersLost.service > 0 }) }, evidence: [...strong, ...supporting] };
}

function crashed(e: RunEvidence): Finding {
  return {
    cause: 'hubCrashed',
    facts: { quote: STALL_WORDS.crashed({ restarted: e.server?.restarted === true, closed: e.disconnects, back: e.reconnects }) },
    evidence: [
      ...(e.server?.restarted ? [EVIDENCE.restarted()] : []),
      ...(e.disconnects > 0 ? [EVIDENCE.disconnects(e.disconnects, e.reconnects)] : []),
      ...(e.server && e.server.unansweredAfterAnswers > 0 ? [EVIDENCE.unanswered(e.server.unansweredAfterAnswers, e.server.answered)] : []),
    ],
  };
}

function silentAtEnd(e: RunEvidence): boolean {
  // A client that stopped sending or reading is not a silent hub.
  if (e.client.keptSchedule === false) return false;
  const intervals = Math.ceil((3 * e.settings.sendIntervalMs) / 1_000);
  return e.silentSecondsAtEnd >= Math.max(SILENT_SECONDS_MIN, intervals);
}

/** A run that planned drops and lost messages to them, with the client on its schedule. */
function dropCost(e: RunEvidence): Finding | null {
  if (!e.settings.plannedDrop || e.client.limits.length > 0 || e.client.keptSchedule === false) return null;
  if ((e.lost ?? 0) + e.notSent === 0) return null;
  const delivery = EVIDENCE.delivery(e.lost, e.notSent, e.late, e.planned);
  return { cause: 'plannedDrop', facts: { quote: `${formatCount(e.lost ?? 0)} lost, ${formatCount(e.notSent)} never sent` }, evidence: [delivery, EVIDENCE.disconnects(e.disconnects, e.reconnects)] };
}

/** The client's own limits, both sides, or the service at its load. */
function clientOrLoad(e: RunEvidence): Finding | null {
  const clientLines = e.client.limits.map(EVIDENCE.client);
  if (e.limit.side === 'both') return { cause: 'bothLimits', facts: { client: e.client.limits.join(' and ') || undefined, server: lowerFirst(e.limit.sentence) }, evidence: [EVIDENCE.server(e.limit.sentence), ...clientLines] };
  if (e.limit.side === 'client' || e.client.limits.length > 0 || e.client.keptSchedule === false) {
    return { cause: 'clientLimit', facts: { client: e.client.limits.join(' and ') || 'fell behind its schedule' }, evidence: clientLines };
  }
  const failedDelivery = (e.lost ?? 0) + e.notSent + e.late > 0;
  if (!failedDelivery || e.planned === 0) return null;
  const delivery = EVIDENCE.delivery(e.lost, e.notSent, e.late, e.planned);
  if (e.limit.side === 'server' || e.limit.side === 'near') return { cause: 'load', facts: { server: lowerFirst(e.limit.sentence).replace(/\.$/, '') }, evidence: [EVIDENCE.server(e.limit.sentence), delivery] };
  // Nothing refused, nothing closed, and the client kept its schedule: what failed is the service
  // carrying this load. Connects the service refused or left unanswered while the rest ran count too.
  // Connects that failed count as the load's only when the service is shown to have refused them.
  const serviceConnects = failuresOfSide(e.connectCauses, 'service');
  if (e.client.keptSchedule === true && e.disconnects === 0 && e.connectionsOpened > 0 && e.received > 0 && serviceConnects >= e.connectionsFailed) {
    return { cause: 'load', evidence: [delivery, EVIDENCE.clientKept(), ...(serviceConnects > 0 ? [EVIDENCE.causes(causesText(e.connectCauses, 'service'))] : [])] };
  }
  return null;
}

/** Nothing above named a cause: a run stopped early, or one whose evidence does not decide. */
function ending(e: RunEvidence): Finding {
  if (e.outcome.kind === 'stopped' || e.outcome.kind === 'interrupted' || e.outcome.kind === 'running') return { cause: 'incomplete' };
  const first = e.failures[0];
  const why = e.client.keptSchedule === null ? QUOTE_WORDS.scheduleUnmeasured() : QUOTE_WORDS.noCause({ mostFrequent: first });
  return { cause: 'unknown', facts: { quote: why } };
}

function lowerFirst(text: string): string {
  return text.replace(/^The /, 'the ');
}

/** The run's other recorded facts, after the ones that named the cause. */
function recordedFacts(e: RunEvidence): string[] {
  return [
    ...(e.connections > 0 ? [EVIDENCE.opened(e.connectionsOpened, e.connections)] : []),
    ...(e.connectionsFailed > 0 && causesText(e.connectCauses) ? [EVIDENCE.causes(causesText(e.connectCauses))] : []),
    ...(e.disconnects > 0 ? [EVIDENCE.disconnects(e.disconnects, e.reconnects)] : []),
    ...(e.planned > 0 && (e.lost ?? 0) + e.notSent + e.late > 0 ? [EVIDENCE.delivery(e.lost, e.notSent, e.late, e.planned)] : []),
    ...e.failures.slice(0, 3).map((f) => EVIDENCE.failure(f.kind, f.count, f.message)),
    ...e.health.filter((h) => h.status !== 200).map((h) => EVIDENCE.health(h.url, h.status, h.text)),
  ];
}
