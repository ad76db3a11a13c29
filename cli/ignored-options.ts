/** The runner's options that would be ignored or overwritten without a word, refused instead (exit 2). */
import path from 'node:path';
import { ARGS_WORDS } from './args-words.ts';

/** Options that depend on another, and what the other is for. */
const NEEDS = [
  ['drop-share', 'drop-at', ARGS_WORDS.dropAtWhy()],
  ['drop-kind', 'drop-at', ARGS_WORDS.dropAtWhy()],
  ['reconnect-policy', 'reconnect', ARGS_WORDS.reconnectWhy()],
] as const;

/** Options of which a run takes one: with two, one would be ignored. */
const ONE_OF = [
  [['access-token-file', 'access-token-env', 'access-token', 'access-token-command'], ARGS_WORDS.oneTokenWhy()],
] as const;

/**
 * Options that would be ignored or overwritten without a word: one that needs another which is
 * missing, and two result files on one path (the second would overwrite the first). A repeated
 * --endpoint is no longer one of them: it lists the instances of a scaled-out hub.
 */
export function ignoredOptionProblems(v: Record<string, string | boolean | string[] | undefined>): string[] {
  const problems: string[] = [];
  for (const [option, needed, why] of NEEDS) {
    if (v[option] !== undefined && v[needed] === undefined) problems.push(ARGS_WORDS.needsOption({ option, needed, why }));
  }
  for (const [options, why] of ONE_OF) {
    const given = options.filter((option) => v[option] !== undefined);
    if (given.length > 1) problems.push(ARGS_WORDS.oneOf({ given, why }));
  }
  const outputs = (['json', 'html', 'memory-log'] as const)
    .map((option) => [option, v[option]] as const)
    .filter((entry): entry is readonly [typeof entry[0], string] => typeof entry[1] === 'string' && entry[1] !== '-');
  for (let i = 0; i < outputs.length; i++) {
    for (let j = i + 1; j < outputs.length; j++) {
      const [first, firstPath] = outputs[i]!;
      const [second, secondPath] = outputs[j]!;
      if (path.resolve(firstPath) === path.resolve(secondPath)) problems.push(ARGS_WORDS.sameOutput({ first, second, path: firstPath }));
    }
  }
  return problems;
}
