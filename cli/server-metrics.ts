/** The runner's reading of the server's /metrics (--server-metrics), for single runs and each step of a capacity search. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { systemClock, systemTimers } from '../core/clocks/index.ts';
import { platformFetchText, ServerScraper, ServerScrapers, type ServerReading, type ParseMetrics } from '../core/server-metrics/index.ts';
import { BenchError, type BenchErrorCode } from '../core/errors/index.ts';
import type { Output } from './output.ts';

/** A scrape's text for the metrics thread, and its answer (a failure with its code: an Error does not cross threads whole). */
export interface ParseRequest { id: number; text: string; atUs: number }
export type ParseAnswer = { id: number; reading: ServerReading } | { id: number; error: string; code: BenchErrorCode };

const threadScript = new URL('./metrics-thread.js', import.meta.url);

/** A scraper of `url` that says a failure once and never touches the run; null without a URL. */
export function serverScraper(url: string | null, io: Output): ServerScraper | null {
  if (url === null) return null;
  return new ServerScraper({
    url,
    fetchText: platformFetchText(),
    parse: offThreadParse(),
    clock: systemClock,
    timers: systemTimers,
    onProblem: (message) => io.err(`live-bench: ${message}`),
  });
}

/** With several hub instances, one scraper per instance's metrics, read as one (their record
 *  combined, each inside it); the one scraper for one address; null for none. */
export function serverScrapers(urls: readonly string[], io: Output): ServerScraper | ServerScrapers | null {
  if (urls.length <= 1) return serverScraper(urls[0] ?? null, io);
  return new ServerScrapers(urls.map((url) => serverScraper(url, io)!));
}

let parser: ParseMetrics | null = null;

/**
 * Parses in one worker thread for the whole process (a capacity search's steps share it), which
 * keeps the process alive only while a parse is waiting. With one engine, the engine runs in
 * this thread, and a parse here would hold up its sends. Where the thread's script is not built
 * (the runner's modules run from source), the parse stays here.
 */
function offThreadParse(): ParseMetrics | undefined {
  if (parser) return parser;
  if (!existsSync(fileURLToPath(threadScript))) return undefined;
  const worker = new Worker(threadScript);
  worker.unref();
  const waiting = new Map<number, { resolve: (reading: ServerReading) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', (answer: ParseAnswer) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if ('reading' in answer) waiter?.resolve(answer.reading);
    else waiter?.reject(new BenchError(answer.code, answer.error));
  });
  // The thread itself failing is the runner's own failure (internal), not the answer's.
  worker.on('error', (error) => failAll(new Error(`the runner's metrics thread failed (${error.message})`)));
  parser = (text, atUs) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    worker.ref();
    worker.postMessage({ id, text, atUs } satisfies ParseRequest);
  });
  return parser;
}
