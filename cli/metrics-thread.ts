/**
 * Entry point of the runner's metrics thread: parses each scrape of --server-metrics away from
 * the thread that sends (cli/server-metrics.ts), so even an answer at the size limit never
 * delays a planned send.
 */
import { parentPort } from 'node:worker_threads';
import { readMetrics } from '../core/server-metrics/index.ts';
import { errorCodeOf, errorMessageOf } from '../core/errors/index.ts';
import type { ParseRequest, ParseAnswer } from './server-metrics.ts';
import { RUN_WORDS } from './run-words.ts';

// Started on its own, it is misused: an internal error, not a user's.
if (!parentPort) throw new Error(RUN_WORDS.notOnItsOwn({ file: 'metrics-thread', as: 'a worker thread' }));
const port = parentPort;
port.on('message', ({ id, text, atUs }: ParseRequest) => {
  let answer: ParseAnswer;
  try {
    answer = { id, reading: readMetrics(text, atUs) };
  } catch (error) {
    answer = { id, error: errorMessageOf(error), code: errorCodeOf(error) };
  }
  port.postMessage(answer);
});
