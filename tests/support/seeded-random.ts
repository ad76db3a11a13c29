/** mulberry32: a seeded generator, so a failing property test can be replayed. One implementation,
 *  the benchmarks' (bench/tool/lib/rounds.mjs, which resamples rounds with it). */
export { seededRandom as seeded } from '../../bench/tool/lib/rounds.mjs';
