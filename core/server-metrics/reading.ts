/**
 * One scrape of an ASP.NET Core app's /metrics (Prometheus text format, as OpenTelemetry's
 * exporter writes it), reduced to the few figures a benchmark charts. Parsed with
 * parse-prometheus-text-format, never by hand. A figure the app does not export is null
 * (unknown), never 0: any ASP.NET Core app may be read, and not every one exports the hub's own
 * counters.
 */
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { BenchError } from '../errors/index.ts';
import { SERVER_METRICS_WORDS as W } from './words.ts';

/** Metric names as OpenTelemetry's Prometheus exporter writes them (dots to underscores, the
 *  unit and `_total` appended). Some exporter versions add `_total` to up-down counters too. */
export const METRIC_NAMES = {
  /** .NET's System.Runtime meter (from .NET 9): process CPU seconds, by cpu_mode. */
  cpuSeconds: ['dotnet_process_cpu_time_seconds_total', 'dotnet_process_cpu_time_seconds'],
  cpuCount: ['dotnet_process_cpu_count', 'dotnet_process_cpu_count_total'],
  workingSetBytes: ['dotnet_process_memory_working_set_bytes', 'dotnet_process_memory_working_set_bytes_total'],
  gcPauseSeconds: ['dotnet_gc_pause_time_seconds_total', 'dotnet_gc_pause_time_seconds'],
  threadPoolQueue: ['dotnet_thread_pool_queue_length', 'dotnet_thread_pool_queue_length_total'],
  /** ASP.NET Core's Microsoft.AspNetCore.Http.Connections meter: every hub of the app. */
  signalrConnections: ['signalr_server_active_connections', 'signalr_server_active_connections_total'],
  kestrelConnections: ['kestrel_active_connections', 'kestrel_active_connections_total'],
  kestrelQueued: ['kestrel_queued_connections', 'kestrel_queued_connections_total'],
  /** The hub-sample's own counters (hub-sample/HubCounters.cs). */
  hubConnections: ['hubsample_hub_connections', 'hubsample_hub_connections_total'],
  hubDeliveries: ['hubsample_hub_deliveries_total', 'hubsample_hub_deliveries'],
  hubInvocations: ['hubsample_hub_invocations_total', 'hubsample_hub_invocations'],
  /** The hub-sample's backplane gauge with --Redis: 1 while its Redis answers, 0 while not. */
  backplaneUp: ['hubsample_backplane_up', 'signalr_bench_backplane_up'],
} as const;

export type ReadingField = keyof typeof METRIC_NAMES;

/** Each figure summed over its label sets (cpu modes, transports, methods, listeners). */
export type ServerReading = { [K in ReadingField]: number | null } & {
  /** When the scrape's answer came, epoch µs. */
  atUs: number;
  /** The process's OpenTelemetry service.instance.id (`target_info`'s `service_instance_id`; the
   *  hub-sample's --InstanceName): two addresses of one process read the same; null when unsaid. */
  instanceId?: string | null;
};

/** OpenTelemetry's resource as a metric: its labels name the process. */
const TARGET_INFO = 'target_info';

/** Reads a scrape; throws a BenchError (parse) saying what is wrong when the text is not the
 *  Prometheus format or holds none of the figures read here. */
export function readMetrics(text: string, atUs: number): ServerReading {
  let families: PrometheusFamily[];
  try {
    families = parsePrometheusTextFormat(linesRead(text));
  } catch (error) {
    throw new BenchError('parse', `the answer is not in the Prometheus text format (${error instanceof Error ? error.message : String(error)})`);
  }
  const byName = new Map(families.map((family) => [family.name, family]));
  const reading = { atUs, instanceId: instanceIdOf(byName.get(TARGET_INFO)) } as ServerReading;
  let known = 0;
  for (const field of Object.keys(METRIC_NAMES) as ReadingField[]) {
    const family = METRIC_NAMES[field].map((name) => byName.get(name)).find((f) => f !== undefined);
    reading[field] = family ? sumOf(family) : null;
    if (reading[field] !== null) known += 1;
  }
  // The parser reads almost any text as some metric: an HTML page (a fallback route) would pass
  // as an app whose every figure is unknown, with nothing said.
  if (known === 0) {
    throw new BenchError('parse', W.noFigures());
  }
  return reading;
}

const NAMES_READ = new Set<string>([...Object.values(METRIC_NAMES).flat(), TARGET_INFO]);
/** First characters of the names read: most other lines are passed over without a copy. */
const FIRST_CHARS = new Set([...NAMES_READ].map((name) => name.charCodeAt(0)));
const HASH = 35;

/**
 * Only the lines of the families read here (their samples and their # TYPE, # HELP and # UNIT
 * lines, whose keyword is 4 letters), for the parser: an app's other families (routes,
 * histograms) are most of an answer, and parsing 4 MB of them took 75-140 ms of a thread.
 */
function linesRead(text: string): string {
  let kept = '';
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const nameStart = text.charCodeAt(start) === HASH ? start + '# TYPE '.length : start;
    if (FIRST_CHARS.has(text.charCodeAt(nameStart))) {
      const line = text.slice(start, end);
      const name = nameStart === start ? line.slice(0, nameEnd(line)) : line.split(' ', 3)[2];
      // The parser drops a last line without its newline.
      if (name !== undefined && NAMES_READ.has(name)) kept += `${line}\n`;
    }
    start = end + 1;
  }
  return kept;
}

/** Where a sample line's metric name ends: at its labels or its value. */
function nameEnd(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 123 /* { */ || c === 32 /* space */ || c === 9 /* tab */) return i;
  }
  return line.length;
}

function instanceIdOf(family: PrometheusFamily | undefined): string | null {
  const labels = family?.metrics[0]?.labels as Record<string, string> | undefined;
  return labels?.service_instance_id ?? null;
}

/** The family's values added up; null when it has no plain value (a histogram) or one is not a number. */
function sumOf(family: PrometheusFamily): number | null {
  let total = 0;
  for (const sample of family.metrics) {
    const value = sample.value === undefined ? NaN : Number(sample.value);
    if (!Number.isFinite(value)) return null;
    total += value;
  }
  return family.metrics.length > 0 ? total : null;
}
