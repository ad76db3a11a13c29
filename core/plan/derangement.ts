/**
 * Who sends to whom in the "send to connection" scenario. The guide's benchmark collects every
 * connection ID, shuffles them and hands each client a target; a client must not be its own
 * target, or the run would measure echo instead of peer-to-peer routing.
 *
 * We use Sattolo's algorithm: it draws uniformly from the (count - 1)! permutations that are one
 * single cycle, each of which is a derangement. That is a subset of all derangements, which does
 * not matter here: every connection still sends to exactly one other connection and receives from
 * exactly one, and the targets are spread over all workers. In exchange it is one pass with no
 * rejection loop, so its running time does not depend on luck.
 */
import { PLAN_WORDS } from './words.ts';

/**
 * A random permutation `p` of 0..count-1 with `p[i] !== i` for every `i`: connection `i` sends to
 * connection `p[i]`.
 *
 * @param count connections taking part; 0 gives [], 1 throws (it has no one else to send to): a
 *   plain Error (internal), as the coordinator pairs only 2 or more.
 * @param random uniform in [0, 1), e.g. `Math.random` or a seeded generator for replayable runs.
 */
export function derangement(count: number, random: () => number): number[] {
  if (!Number.isInteger(count) || count < 0) {
    throw new Error(PLAN_WORDS.pairCount({ count }));
  }
  if (count === 1) {
    throw new Error(PLAN_WORDS.pairOne());
  }
  const targets = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    // j < i, never j = i: that is the whole difference from Fisher-Yates, and it is what rules out
    // fixed points. The min() guards against a generator that returns 1 (or rounds up to it).
    const j = Math.min(i - 1, Math.floor(random() * i));
    const swap = targets[i]!;
    targets[i] = targets[j]!;
    targets[j] = swap;
  }
  return targets;
}
