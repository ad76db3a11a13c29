/**
 * Echo: every connection sends `Echo(ts, payload)` to the hub, which sends it back to the same
 * connection as `Measure(ts, payload)`. One expected reception per send. The guide's "echo" use
 * case.
 */
import type { Clock, Timers } from '../../core/clock.ts';
import { parsePayloadHeader, PayloadBuilder } from '../../core/payload.ts';
import type { PooledConnection } from '../engine/connection-pool.ts';
import { OpenLoop } from '../engine/open-loop.ts';
import type { WorkerStats } from '../engine/worker-stats.ts';

export interface ScenarioContext {
  clock: Clock;
  timers: Timers;
  stats: WorkerStats;
  messageBytes: number;
  sendIntervalMs: number;
  /** Connections in the whole run: send offsets are spread evenly across the interval over all of them. */
  totalConnections: number;
}

export class EchoScenario {
  readonly #loops: OpenLoop[] = [];
  /** Sequence numbers sent and not yet received back, per connection. */
  readonly #pending = new Map<number, Set<number>>();
  readonly #payload: PayloadBuilder;
  readonly #intervalUs: number;

  constructor(private readonly ctx: ScenarioContext) {
    this.#payload = new PayloadBuilder(ctx.messageBytes);
    this.#intervalUs = ctx.sendIntervalMs * 1_000;
  }

  /** Starts the send loops of the open connections; sends are planned in [sendStartUs, sendEndUs). */
  start(connections: PooledConnection[], sendStartUs: number, sendEndUs: number): void {
    for (const pooled of connections) {
      if (pooled.state !== 'open') continue;
      const pending = new Set<number>();
      this.#pending.set(pooled.index, pending);
      // Spreading first sends across the interval keeps the hub's load even instead of in bursts.
      const offsetUs = (pooled.index / this.ctx.totalConnections) * this.#intervalUs;
      const loop = new OpenLoop(this.ctx.clock, this.ctx.timers, sendStartUs + offsetUs, this.#intervalUs, sendEndUs,
        (plannedUs, sendLagUs, seq) => this.#send(pooled, pending, plannedUs, sendLagUs, seq));
      pooled.onMeasure = (ts, payload) => this.#receive(pending, ts, payload);
      pooled.onClosed = () => loop.stop();
      this.#loops.push(loop);
      loop.start();
    }
  }

  /** Stops planning sends; messages in flight may still arrive. */
  stop(): void {
    for (const loop of this.#loops) loop.stop();
  }

  /** Messages sent and not received yet. */
  pendingCount(): number {
    let count = 0;
    for (const pending of this.#pending.values()) count += pending.size;
    return count;
  }

  #send(pooled: PooledConnection, pending: Set<number>, plannedUs: number, sendLagUs: number, seq: number): void {
    const payload = this.#payload.build({ sender: pooled.index, seq, sendLagUs });
    pending.add(seq);
    this.ctx.stats.recordSend(sendLagUs, this.#intervalUs);
    pooled.connection.send('Echo', Math.round(plannedUs), payload).catch((error: unknown) => {
      // Never written: neither lost on the way nor a delivery to wait for.
      pending.delete(seq);
      this.ctx.stats.recordError('send', `Echo could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  #receive(pending: Set<number>, ts: number, payload: string): void {
    const nowUs = this.ctx.clock.nowUs();
    const header = parsePayloadHeader(payload);
    if (!header) {
      this.ctx.stats.recordError('protocol', 'A Measure message without this tool\'s payload header arrived: another client may be using the same hub.');
      return;
    }
    if (!pending.delete(header.seq)) {
      this.ctx.stats.recordDuplicate();
      return;
    }
    const correctedUs = nowUs - Number(ts);
    this.ctx.stats.recordReceive(correctedUs, correctedUs - header.sendLagUs);
  }
}
