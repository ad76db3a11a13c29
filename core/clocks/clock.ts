/**
 * Time, injected so the engine can be driven by a fake in unit tests.
 * All engine times are microseconds since the Unix epoch (~1.7e15): an integer well under 2^53,
 * so it survives both JSON and MessagePack and fits a .NET long (ticks would not: FACTS).
 */
export interface Clock {
  /** Microseconds since the Unix epoch, fractional. */
  nowUs(): number;
}

export interface Timers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** `performance.timeOrigin + performance.now()`: monotonic within a context, 5 us resolution
 *  when the page is cross-origin isolated, 0.1 ms otherwise. */
export const systemClock: Clock = {
  nowUs: () => (performance.timeOrigin + performance.now()) * 1_000,
};

export const systemTimers: Timers = {
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
