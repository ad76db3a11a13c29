/**
 * The dashboard's server-metrics setting: read the app's /metrics during a run (on by default),
 * from the endpoint's own origin unless another address is given. Scraping itself is
 * core/server-metrics/scraper.ts; the run controller starts it beside each run.
 */
import type { MetricsChoice } from '../../core/run-config/index.ts';
import { defaultMetricsUrl, metricsUrlProblem } from '../../core/server-metrics/index.ts';

export class ServerMetricsSettings {
  /** Read the server's metrics during runs. Default true. */
  enabled = $state(true);
  /** The address typed; empty for the endpoint's /metrics. */
  address = $state('');

  /** @param initial what a shared link chose (core/run-config/config-url.ts); the defaults without one. */
  constructor(initial: MetricsChoice | null = null) {
    if (initial) {
      this.enabled = initial.enabled;
      this.address = initial.address;
    }
  }
  /** What is wrong with the typed address, for the field to show at once; null when fine. */
  readonly problem = $derived(this.address.trim() === '' ? null : metricsUrlProblem(this.address.trim()));

  /** The address to read for a run against `endpointUrl`, or null (off, or not an address:
   *  the field says why, and the run goes on without server metrics). */
  urlFor(endpointUrl: string): string | null {
    if (!this.enabled || this.problem !== null) return null;
    const typed = this.address.trim();
    if (typed !== '') return typed;
    try {
      return defaultMetricsUrl(endpointUrl);
    } catch {
      return null;
    }
  }
}
