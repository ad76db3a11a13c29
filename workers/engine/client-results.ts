/**
 * Client results (a profile's `answer`, Azure's ClientResultSample): the hub invokes a client
 * method on a connection and awaits its answer (`Clients.Client(id).InvokeAsync<T>`), then
 * returns to the caller. Every connection answers with a text of its own making (its index as
 * sender, its own answer counter as sequence, the planned time now), so the caller's completion
 * can be told to carry this run's answer wherever the hub puts it (`From {id}: {answer}`).
 */
import type { Clock } from '../../core/clocks/index.ts';
import type { PooledConnection } from './connection-pool.ts';
import { PayloadBuilder, readPayloadHeader, type HeaderNumbers } from './payload.ts';

/** Makes each connection's answers: the profile's answer.with around a text of the connection's own. */
export class Answerer {
  readonly #answered = new Map<PooledConnection, number>();

  constructor(private readonly payload: PayloadBuilder, private readonly clock: Clock, private readonly answerWith: (message: string) => unknown) {}

  /** The next answer of `pooled`. */
  answer(pooled: PooledConnection): unknown {
    const seq = this.#answered.get(pooled) ?? 0;
    this.#answered.set(pooled, seq + 1);
    return this.answerWith(this.payload.build({ sender: pooled.index, seq, sendLagUs: 0, plannedUs: this.clock.nowUs() }));
  }
}

/** The numbers of a header read out of a return value: reused. */
const header: HeaderNumbers = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0 };

/**
 * Whether a client result's return value carries a text of this run: a string holding one
 * anywhere ("From <id>: <answer>"), or an object or list one of whose strings does. Read once per
 * completion: the hub's wrapping is allocated anyway.
 */
export function carriesRunText(value: unknown, runId: string): boolean {
  const text = typeof value === 'string' ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : '';
  const tag = `${runId}:`;
  for (let at = text.indexOf(tag); at >= 0; at = text.indexOf(tag, at + 1)) {
    if (readPayloadHeader(text.slice(at), runId, header) === 'ours') return true;
  }
  return false;
}
