/**
 * The hubs' own word on their health at the end of a run that did not pass: one GET of each
 * endpoint's origin's /healthz, at most HEALTH_TIMEOUT_MS each, all at once. A hub-sample that
 * lost its backplane answers 503 with the reason; an app without the route answers 404 and says
 * nothing; a frozen one does not answer. Evidence for the diagnosis (core/diagnosis), never a
 * verdict of its own.
 */
import type { HealthCheck } from '../core/diagnosis/index.ts';
import { hubInstances, type RunConfig } from '../core/run-config/index.ts';

/** How long one /healthz may take, ms: a frozen hub must not hold the run's end for long. */
export const HEALTH_TIMEOUT_MS = 2_000;
/** Most characters of an answer kept: a reason is one line. */
const KEPT_CHARS = 300;

export async function healthChecks(config: RunConfig, timeoutMs = HEALTH_TIMEOUT_MS): Promise<HealthCheck[]> {
  const urls = [...new Set(hubInstances(config).map((endpoint) => `${new URL(endpoint).origin}/healthz`))];
  return Promise.all(urls.map((url) => healthOf(url, timeoutMs)));
}

async function healthOf(url: string, timeoutMs: number): Promise<HealthCheck> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    const text = (await response.text()).replace(/\s+/g, ' ').trim().slice(0, KEPT_CHARS);
    return { url, status: response.status, text };
  } catch (error) {
    const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer in ${timeoutMs / 1_000} s` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return { url, status: null, text: why.slice(0, KEPT_CHARS) };
  }
}
