/** The runner's options that would be ignored or overwritten without a word, refused instead (exit 2). */
import path from 'node:path';

/** Options that depend on another, and what the other is for. */
const NEEDS = [
  ['drop-share', 'drop-at', 'the second of the sends at which connections drop: without it nothing is dropped'],
  ['drop-kind', 'drop-at', 'the second of the sends at which connections drop: without it nothing is dropped'],
  ['reconnect-policy', 'reconnect', 'without it a lost connection does not come back, and no policy applies'],
] as const;

/** Options of which a run takes one: with two, one would be ignored. */
const ONE_OF = [
  [['access-token-file', 'access-token-env', 'access-token', 'access-token-command'], 'ways to give the access token, and a run takes one: keep one (--access-token-file holds one token per user)'],
] as const;

/**
 * Options that would be ignored or overwritten without a word: one that needs another which is
 * missing, and two result files on one path (the second would overwrite the first). A repeated
 * --endpoint is no longer one of them: it lists the instances of a scaled-out hub.
 */
export function ignoredOptionProblems(v: Record<string, string | boolean | string[] | undefined>): string[] {
  const problems: string[] = [];
  for (const [option, needed, why] of NEEDS) {
    if (v[option] !== undefined && v[needed] === undefined) problems.push(`--${option} needs --${needed} (${why}). Add --${needed}, or drop --${option}.`);
  }
  for (const [options, why] of ONE_OF) {
    const given = options.filter((option) => v[option] !== undefined);
    if (given.length > 1) problems.push(`${given.map((option) => `--${option}`).join(' and ')} are ${given.length === 2 ? 'both' : 'all'} ${why}.`);
  }
  const outputs = (['json', 'html', 'memory-log'] as const)
    .map((option) => [option, v[option]] as const)
    .filter((entry): entry is readonly [typeof entry[0], string] => typeof entry[1] === 'string' && entry[1] !== '-');
  for (let i = 0; i < outputs.length; i++) {
    for (let j = i + 1; j < outputs.length; j++) {
      const [first, firstPath] = outputs[i]!;
      const [second, secondPath] = outputs[j]!;
      if (path.resolve(firstPath) === path.resolve(secondPath)) problems.push(`--${first} and --${second} both write ${firstPath}: the second would overwrite the first. Give each its own file.`);
    }
  }
  return problems;
}
