/**
 * The words the runner prints while it runs (main.ts, report.ts, output.ts, capacity.ts and the
 * engine's threads): why nothing was run, an interruption, a connect that hangs, a result file
 * that could not be written, why a run did not pass, and an internal error. Each prefixed line
 * starts "live-bench: " where it is printed, or here when the whole line is this room's. Pure.
 */

export const RUN_WORDS = {
  /** The closing line of a refusal before the run: what to fix, if anything beyond the lines above. */
  nothingRun: (p: { fix?: 'options' | 'paths' | 'instances' | 'limits' }) => {
    if (p.fix === 'options') return 'live-bench: nothing was run. Fix the options above (--help lists them all).';
    if (p.fix === 'paths') return 'live-bench: nothing was run. Fix the paths above.';
    if (p.fix === 'instances') return 'live-bench: nothing was run. List each hub instance once.';
    if (p.fix === 'limits') return 'live-bench: nothing was run: this machine cannot hold the connections asked for.';
    return 'live-bench: nothing was run.';
  },
  tokenCommandUser: (p: { refusal: string }) => `live-bench: with the token --access-token-command gave, ${p.refusal}`,
  /** The first Ctrl+C or SIGTERM: a run drains and writes; a capacity search drains its step first. */
  interrupted: (p: { signal: string; search: boolean }) => `live-bench: ${p.signal === 'SIGTERM' ? 'terminated' : 'interrupted'}; ${p.search
    ? 'stopping the search after draining the step under way, then writing the results'
    : 'stopping, draining messages in flight and writing the results'} (${p.signal} again to quit at once).`,
  unwritable: (p: { option: string; file: string; why: string }) => `${p.option} ${p.file} cannot be written: ${p.why}. Choose a path in a folder you can write to.`,
  noFolder: (p: { dir: string }) => `the folder ${p.dir} does not exist`,
  notWritten: (p: { what: string; file: string; why: string; whereElse: string }) => `live-bench: the ${p.what} could not be written to ${p.file}: ${p.why}. ${p.whereElse}`,
  /** Where the figures are when a result file could not be written. */
  runFiguresAbove: () => 'The run\'s figures are in the summary above.',
  resultFileUnwritten: () => 'a result file could not be written (see above).',
  guideVerdictFailed: (p: { verdict: string }) => `the guide's verdict is not a pass (${p.verdict}) Use --no-guide-rule to report it without failing (lost messages still fail the run: see --allow-loss).`,
  crashed: (p: { code: number; message: string; frames: string }) => `live-bench: internal error (exit ${p.code}, not a verdict on the service): ${p.message}${p.frames ? ` [${p.frames}]` : ''}. Please report it with the command line.`,
  /** An engine or metrics thread started on its own: a misuse, an internal error. */
  notOnItsOwn: (p: { file: string; as: string }) => `${p.file} runs as ${p.as} of the headless runner, not on its own.`,

  // While no connection has opened yet (report.ts stallNotice).
  noneOpened: (p: { seconds: number }) => `live-bench: no connection has opened after ${p.seconds} s of connecting`,
  connectsRefused: (p: { opened: string; url: string }) => `${p.opened}: the connects to ${p.url} are refused. Nothing accepts connections there: check the URL and port, and that the hub is running.`,
  connectsFail: (p: { opened: string; url: string }) => `${p.opened}: the connects to ${p.url} fail (the first error above says why).`,
  connectsWaiting: (p: { opened: string; url: string; giveUpSeconds: number }) => `${p.opened}; the connects are still waiting for ${p.url} to answer. The hub may be stalled or unreachable; with no answer within ${p.giveUpSeconds} s of the first connect the run gives up.`,

  // The summary's lines (report.ts summaryText).
  clientBehind: (p: { behind: string }) => `. This client could not keep the schedule (it ${p.behind}): the figures include its own delay. Use more workers or fewer connections per machine.`,
  hubOwnMessages: (p: { perSec: string; ratio: string; total: string; tier: string }) => `  The hub also delivered ${p.perSec} messages of its own a second${p.ratio}, not counted above: the service's outbound was ${p.total} msg/s${p.tier}.`,
  hubOwnTier: (p: { fittingTier: string | null }) => (p.fittingTier ? `; counted with them, the smallest fitting tier is ${p.fittingTier}` : '; counted with them, no tier fits'),
} as const;
