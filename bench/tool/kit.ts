/**
 * What the comparison clients share with the engine, so that the only difference between our
 * client and a comparison client is the client: the open-loop schedule (per-connection timer
 * chain, whole-ms delays rounded up, never early), the clock, the payload with its header, the
 * drain's rule and the HdrHistogram settings. Built once into dist-bench/kit.js
 * (`npm run build:bench`, vite.bench.config.ts), a plain ES module for Node and for the raw
 * browser client's workers alike.
 */
export { systemClock, systemTimers } from '../../core/clocks/clock.ts';
export { createLatencyHistogram, recordLatencyUs, summarizeLatency, encodeHistogram, decodeHistogram } from '../../core/latency/latency.ts';
export { PayloadBuilder, parsePayloadHeader } from '../../workers/engine/payload.ts';
export { newRunId } from '../../core/execution/run-id.ts';
export { drainPlan } from '../../core/run-config/config.ts';
export { OpenLoop } from '../../workers/engine/open-loop.ts';
