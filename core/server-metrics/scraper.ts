/**
 * Reads an app's /metrics once a second during a run, for the dashboard and the headless runner
 * alike. Metrics never block or fail a run: a scrape that fails is counted, the first failure is
 * said once (onProblem) and the scraping goes on, so a server that comes back is read again.
 * Each answer is bounded in size (MAX_METRICS_BYTES, read as a stream and aborted past it) and in
 * time, so a huge or endless answer costs the run it observes nothing but a skipped reading; the
 * runner parses off the thread that sends (ScraperOptions.parse).
 */
import type { Clock, Timers } from '../clocks/index.ts';
import { BenchError } from '../errors/index.ts';
import { readMetrics, type ServerReading } from './reading.ts';
import { addDeliveries, emptyServerRecord, secondOf, serverSecond, type ServerMetricsRecord } from './series.ts';
import { SERVER_METRICS_WORDS as W } from './words.ts';

/** Time between two scrapes, in ms: the client's figures are per second too. */
export const SCRAPE_INTERVAL_MS = 1_000;

/** Largest metrics answer read, in bytes: the hub-sample's is 8-17 KB, a big app's a few
 *  hundred. A larger one is skipped as a failed scrape, unparsed. */
export const MAX_METRICS_BYTES = 4 * 1024 * 1024;

/** Time one scrape may take, answer included, in ms. */
export const SCRAPE_TIMEOUT_MS = 2_000;

/** Fetches the metrics text; rejects with a BenchError saying what failed: couldNotConnect (no
 *  answer, or it broke off), refused (an error status), parse (an answer too large to be metrics). */
export type FetchText = (url: string) => Promise<string>;

/** Reads a scrape's text as a reading taken at `atUs` (reading.ts's readMetrics, perhaps on
 *  another thread); rejects with a BenchError (parse) saying what is wrong with the text. */
export type ParseMetrics = (text: string, atUs: number) => Promise<ServerReading>;

export interface ScraperOptions {
  url: string;
  fetchText: FetchText;
  /** Where the text is parsed. Default: here, at once (a page's main thread does not send). */
  parse?: ParseMetrics;
  clock: Clock;
  timers: Timers;
  /** Called after each scrape that added a point. */
  onUpdate?: () => void;
  /** Called once, with the first failure, worded for people. */
  onProblem?: (message: string) => void;
}

export class ServerScraper {
  readonly #options: ScraperOptions;
  readonly #record: ServerMetricsRecord;
  #runStartUs = 0;
  /** Readings started so far: reading n is due at the run's start + n s. */
  #ticks = 0;
  #previous: ServerReading | null = null;
  #timer: unknown = null;
  #stopped = false;
  /** Stopped without a last reading: an answer still on its way is dropped, so the record stays
   *  as it was at the stop (what the run keeps is what the page showed). */
  #frozen = false;
  #inFlight: Promise<void> = Promise.resolve();
  /** The last copy handed out, kept until a reading or a failure changes the record, so views
   *  that refresh every frame redraw the server's charts only when something is new. */
  #copy: ServerMetricsRecord | null = null;

  constructor(options: ScraperOptions) {
    this.#options = options;
    this.#record = emptyServerRecord(options.url);
  }

  /** The server's side so far: a copy, safe to keep, the same object until something changes. */
  record(): ServerMetricsRecord {
    this.#copy ??= { ...this.#record, points: [...this.#record.points] };
    return this.#copy;
  }

  /** Reads at once (the baseline), then every SCRAPE_INTERVAL_MS until stop(). */
  start(): void {
    this.#runStartUs = this.#options.clock.nowUs();
    this.#tick();
  }

  /** Stops, after one last reading (the hub's final counts) unless `finalReading` is false.
   *  Never rejects. */
  async stop(finalReading = true): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#frozen = !finalReading;
    this.#options.timers.clearTimeout(this.#timer);
    await this.#inFlight;
    if (finalReading) await this.#scrape();
  }

  #tick(): void {
    this.#ticks += 1;
    this.#inFlight = this.#scrape().then(() => {
      if (this.#stopped) return;
      // Due on the run's own seconds, not a second after the last answer: slow answers must
      // not make the readings drift away from the client's seconds. One at a time, though.
      const dueUs = this.#runStartUs + this.#ticks * SCRAPE_INTERVAL_MS * 1_000;
      const delayMs = Math.max(0, (dueUs - this.#options.clock.nowUs()) / 1_000);
      this.#timer = this.#options.timers.setTimeout(() => this.#tick(), delayMs);
    });
  }

  async #scrape(): Promise<void> {
    const { url, fetchText, clock } = this.#options;
    let reading: ServerReading;
    try {
      const text = await fetchText(url);
      const atUs = clock.nowUs();
      reading = this.#options.parse ? await this.#options.parse(text, atUs) : readMetrics(text, atUs);
    } catch (error) {
      if (!this.#frozen) this.#failed(error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.#frozen) return;
    const record = this.#record;
    if (reading.instanceId) record.serviceInstanceId = reading.instanceId;
    const second = secondOf(reading.atUs, this.#runStartUs, record.points.at(-1)?.second ?? null);
    record.points.push(serverSecond(second, reading, this.#previous));
    record.deliveries = addDeliveries(this.#previous === null ? null : record.deliveries, this.#previous, reading);
    this.#previous = reading;
    this.#copy = null;
    this.#options.onUpdate?.();
  }

  #failed(reason: string): void {
    const record = this.#record;
    record.failedScrapes += 1;
    this.#copy = null;
    if (record.problem !== null) return;
    record.problem = W.unreadable({ url: record.url, reason });
    this.#options.onProblem?.(record.problem);
  }
}

/** The metrics address of the app behind a hub endpoint: its origin's /metrics. */
export function defaultMetricsUrl(endpointUrl: string): string {
  return new URL('/metrics', endpointUrl).toString();
}

/** Why `text` is not a metrics address, or null when it is one (an absolute http(s) URL). */
export function metricsUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return W.notUrl({ text });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return W.notHttp({ text });
  }
  return null;
}

/** Fetches with the platform's fetch (browsers and Node 20 alike), within `timeoutMs` for the
 *  whole answer and at most `maxBytes` of it. */
export function platformFetchText(timeoutMs = SCRAPE_TIMEOUT_MS, maxBytes = MAX_METRICS_BYTES): FetchText {
  const stalled = W.noAnswer({ seconds: timeoutMs / 1_000 });
  return async (url) => {
    let response: Response;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      try {
        // No credentials: the page's cookies have no business on another app's /metrics, and
        // without them a CORS answer may allow any listed origin.
        response = await fetch(url, { cache: 'no-store', credentials: 'omit', signal: controller.signal });
      } catch {
        throw new BenchError('couldNotConnect', controller.signal.aborted
          ? stalled
          : W.requestFailed());
      }
      if (response.status === 404) throw new BenchError('refused', W.notFound());
      if (response.status === 403) throw new BenchError('refused', W.forbidden());
      if (!response.ok) throw new BenchError('refused', W.httpStatus(response));
      return await boundedText(response, maxBytes, controller, stalled);
    } finally {
      clearTimeout(timer);
      // An answer left unread (an error status, a body over the limit) lets its connection go.
      controller.abort();
    }
  };
}

/** The body as text, read as a stream and abandoned past `maxBytes` (or when `controller` aborts). */
async function boundedText(response: Response, maxBytes: number, controller: AbortController, stalled: string): Promise<string> {
  const overLimit = (size: string | null) => {
    controller.abort();
    return new BenchError('parse', W.tooLarge({ size, limit: formatLimit(maxBytes) }));
  };
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw overLimit(formatLimit(declared));
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw new BenchError('couldNotConnect', controller.signal.aborted ? stalled : 'the answer broke off before its end');
      }
      if (chunk.done) return text + decoder.decode();
      bytes += chunk.value.byteLength;
      if (bytes > maxBytes) throw overLimit(null);
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/** 4194304 → "4 MB" (binary megabytes, as the limit is set). */
function formatLimit(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
