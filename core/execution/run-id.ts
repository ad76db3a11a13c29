/**
 * The run id: a short random name made once per run (each capacity step is a run of its own)
 * and carried on the wire, in every payload header and in every group name. A hub is often
 * shared (two people, two CI jobs, two capacity steps one after the other): a Measure message
 * of another run is then told apart and counted as foreign, never as an arrival or a duplicate,
 * and one run's group messages never reach another run's members.
 */

/** Characters of a run id: 8 base-36 characters, 36^8 ≈ 2.8e12 names. */
export const RUN_ID_LENGTH = 8;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A new run id, e.g. "k3f9x0qa". `random` is uniform in [0, 1) (injectable for tests). */
export function newRunId(random: () => number = Math.random): string {
  let id = '';
  for (let i = 0; i < RUN_ID_LENGTH; i++) id += ALPHABET[Math.min(ALPHABET.length - 1, Math.floor(random() * ALPHABET.length))];
  return id;
}

/** True for what {@link newRunId} makes: the payload header's parser checks it. */
export function isRunId(text: string): boolean {
  return text.length === RUN_ID_LENGTH && /^[0-9a-z]+$/.test(text);
}

/** The hub group a run's group plan calls `planName` ("group-3" → "k3f9x0qa-group-3"): the hub-sample
 *  accepts names up to 128 characters (HubSettings.MaxGroupNameLength). */
export function runGroupName(runId: string, planName: string): string {
  return `${runId}-${planName}`;
}
