/**
 * The words of a hub's server metrics: which side set a run's limit (attribution.ts), why a
 * metrics address or its answer could not be read (scraper.ts, reading.ts), and instances whose
 * figures are counted once (instances.ts). The logic decides which and with what figures; only
 * this file writes prose, so the page, the runner and the reports say it alike. Pure.
 */

/** The advice whenever both sides fell short: which one set the limit cannot be told from here. */
const TELL_APART = 'The figures describe both; run the client on another machine to tell them apart.';

export const SERVER_METRICS_WORDS = {
  // Which side set the limit (attribution.ts): `server` and `client` are worded to follow "the server" and "the client".
  bothFellShort: (p: { server: string; client: string }) => `Both sides fell short: the server ${p.server} and the client ${p.client}. ${TELL_APART}`,
  bothSaturated: (p: { server: string; client: string }) => `Both sides were saturated: the server ${p.server} and the client ${p.client}. ${TELL_APART}`,
  serverLimit: (p: { server: string }) => `The server ${p.server} while the client kept its schedule: the service is the limit.`,
  clientLimitNoCpu: (p: { client: string }) => `The client ${p.client}: the client is the limit (the server's load is unknown: no CPU reading from its metrics).`,
  unknownSide: () => 'The client kept its schedule; the server\'s load is unknown (no CPU reading from its metrics), so which side sets the limit cannot be told.',
  clientLimit: (p: { client: string; cpu: string }) => `The client ${p.client} while the server peaked at ${p.cpu}: the client is the limit.`,
  nearLimit: (p: { cpu: string; advicePercent: number }) => `The server peaked at ${p.cpu}, above the guide's advice to stay under ${p.advicePercent}%, while the client kept its schedule: the service is near its limit.`,
  neither: (p: { cpu: string }) => `Neither was saturated: the server peaked at ${p.cpu} and the client kept its schedule.`,
  cpu: (p: { percent: number }) => `${p.percent}% CPU`,
  /** How the server was saturated, worded to follow "the server". */
  stoppedAnswering: (p: { count: string; one: boolean }) => `stopped answering (${p.count} reading${p.one ? '' : 's'} of its metrics got no answer)`,
  wasAt: (p: { cpu: string }) => `was at ${p.cpu}`,

  // One instance behind several addresses (instances.ts).
  sameProcess: (p: { urls: readonly string[]; id: string; countedUrl: string }) => `Server metrics at ${p.urls.join(' and ')} come from one instance (service_instance_id "${p.id}"): its figures are counted once, from ${p.countedUrl}, not summed. Give each instance's own /metrics once.`,

  // Reading the metrics (scraper.ts, reading.ts).
  unreadable: (p: { url: string; reason: string }) => `Server metrics at ${p.url} could not be read: ${p.reason}. The run goes on without them; switch them off or give another address to stop this message.`,
  notUrl: (p: { text: string }) => `The server metrics address '${p.text}' is not a URL: write it like http://127.0.0.1:5180/metrics, or leave it empty to use the endpoint's /metrics.`,
  notHttp: (p: { text: string }) => `The server metrics address must start with http:// or https://, but is '${p.text}'.`,
  /** Why a reading failed, said after "could not be read: ". */
  noAnswer: (p: { seconds: number }) => `no answer within ${p.seconds} s (the server may be stalled or overloaded)`,
  requestFailed: () => 'the request failed (the server is unreachable, or it does not allow this page\'s origin: list it in the app\'s CORS origins)',
  notFound: () => '404 Not Found (the app does not serve metrics there: on the hub-sample, --EnableMetrics must be true)',
  forbidden: () => '403 Forbidden (the app refuses this page\'s origin: list it in the hub-sample\'s --CorsOrigins)',
  httpStatus: (p: { status: number; statusText: string }) => `HTTP ${p.status} ${p.statusText}`,
  tooLarge: (p: { size: string | null; limit: string }) => `the answer is ${p.size === null ? '' : `${p.size}, `}over the ${p.limit} this tool reads of a metrics answer: it was skipped, not parsed (is this address an app's /metrics?)`,
  noFigures: () => 'the answer holds none of the figures this tool reads (.NET\'s System.Runtime, ASP.NET Core\'s SignalR and Kestrel meters, the hub-sample\'s counters): is this an ASP.NET Core app exporting them in the Prometheus text format?',
};
