/** The runner's reading of the server's /metrics (--server-metrics), for single runs and each step of a capacity search. */
import { systemClock, systemTimers } from '../core/clock.ts';
import { platformFetchText, ServerScraper } from '../core/server-metrics/scraper.ts';
import type { Output } from './output.ts';

/** A scraper of `url` that says a failure once and never touches the run; null without a URL. */
export function serverScraper(url: string | null, io: Output): ServerScraper | null {
  if (url === null) return null;
  return new ServerScraper({
    url,
    fetchText: platformFetchText(),
    clock: systemClock,
    timers: systemTimers,
    onProblem: (message) => io.err(`live-bench: ${message}`),
  });
}
