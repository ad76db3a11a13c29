/**
 * Whether anything answers at an endpoint's origin, asked the one way a page may ask another
 * origin without its leave: a `no-cors` request, whose answer the page cannot read but whose
 * arrival it sees. A negotiate that failed with no status ("Failed to fetch") is then told apart:
 * an origin that answers refused this page (CORS), one that does not is not there
 * (core/diagnosis corsBlocked, unreachable).
 */

/** How long the probe waits for an answer before taking the origin as silent, ms. */
export const ORIGIN_PROBE_TIMEOUT_MS = 3_000;

export async function originAnswers(endpointUrl: string, timeoutMs = ORIGIN_PROBE_TIMEOUT_MS): Promise<boolean> {
  try {
    await fetch(`${new URL(endpointUrl).origin}/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  }
}
