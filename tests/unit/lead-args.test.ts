/** The headless lead's options (cli/lead-args.ts), taken out before the run's own parser sees the rest. */
import { describe, expect, it } from 'vitest';
import { parseAgentArgs } from '../../cli/agent-args.ts';
import { parseCliArgs } from '../../cli/args.ts';
import { chosenCodeProblem, controlUrlOf, DEFAULT_AGENTS_TIMEOUT_SEC, splitLeadArgs } from '../../cli/lead-args.ts';

const run = ['--endpoint', 'http://hub:5180/signalrbench', '--connections', '30', '--duration', '2'];

describe('splitLeadArgs', () => {
  it('without --lead: the command line is the run\'s, untouched', () => {
    expect(splitLeadArgs(run)).toEqual({ ok: true, lead: null, rest: run });
  });

  it('takes the lead\'s options out, in both spellings, and leaves a run the run\'s parser accepts', () => {
    const split = splitLeadArgs(['--lead', '--agents', '3', ...run, '--agents-timeout=15', '--session', 'k7qw2mzp9rtx', '--control=http://ctl:5180/control', '--include-local']);
    expect(split).toEqual({ ok: true, lead: { agents: 3, agentsTimeoutSec: 15, session: 'K7QW2MZP9RTX', sessionSecret: null, agentsSecrets: 'warn', controlUrl: 'http://ctl:5180/control', includeLocal: true }, rest: run });
    expect(parseCliArgs(run).ok).toBe(true);
  });

  it('defaults: the hub picks the code, the control hub is beside the endpoint, the lead runs no connection itself', () => {
    const split = splitLeadArgs(['--lead', '--agents', '2', ...run]);
    if (!split.ok || !split.lead) throw new Error('refused');
    expect(split.lead).toEqual({ agents: 2, agentsTimeoutSec: DEFAULT_AGENTS_TIMEOUT_SEC, session: null, sessionSecret: null, agentsSecrets: 'warn', controlUrl: null, includeLocal: false });
    expect(controlUrlOf(split.lead, 'https://hub.example:8443/signalrbench?x=1')).toBe('https://hub.example:8443/control');
  });

  it('says every problem at once', () => {
    const split = splitLeadArgs(['--lead', '--agents', '0', '--agents-timeout', '-1', '--session', 'ABC', '--control', 'hub:5180', '--find-capacity']);
    expect(split.ok).toBe(false);
    const errors = split.ok ? [] : split.errors;
    expect(errors).toHaveLength(5);
    expect(errors[0]).toMatch(/--agents must be a whole number from 1 to 256, but is "0"/);
    expect(errors[1]).toMatch(/--agents-timeout must be seconds above 0/);
    expect(errors[2]).toMatch(/--session: a chosen session code must be 10 to 32 characters/);
    expect(errors[3]).toMatch(/--control must be the control hub's http\(s\) URL/);
    expect(errors[4]).toMatch(/--find-capacity cannot be led over agents/);
  });

  it('--lead without --agents, a value missing, or a lead option without --lead', () => {
    expect(splitLeadArgs(['--lead', ...run])).toEqual({ ok: false, errors: [expect.stringMatching(/--lead needs --agents <n>/)], rest: run, help: false });
    expect(splitLeadArgs(['--lead', '--help'])).toMatchObject({ ok: false, help: true });
    expect(splitLeadArgs(['--lead', '--agents', '--quiet'])).toMatchObject({ ok: false, errors: [expect.stringMatching(/--agents needs a value/), expect.anything()] });
    expect(splitLeadArgs(['--agents', '3', '--include-local', ...run])).toEqual({ ok: false, errors: ['--agents, --include-local belong to a headless lead: add --lead --agents <n>, or drop them.'], rest: run, help: false });
  });
});

describe('secrets and agents: --session-secret, --agents-secrets', () => {
  it('takes a secret chosen in advance with its code, and the policy for a plain http control hub', () => {
    const split = splitLeadArgs(['--lead', '--agents', '2', '--session', 'K7QW2MZP9RTX', '--session-secret', 'Q8vR2mT5xKpW', '--agents-secrets', 'refuse', ...run]);
    expect(split).toMatchObject({ ok: true, lead: { sessionSecret: 'Q8vR2mT5xKpW', agentsSecrets: 'refuse' }, rest: run });
  });

  it('refuses a secret without its code, a weak secret (never quoting it) and an unknown policy', () => {
    const split = splitLeadArgs(['--lead', '--agents', '2', '--session-secret', 'ABABABABABAB', '--agents-secrets', 'maybe', ...run]);
    const errors = split.ok ? [] : split.errors;
    expect(errors).toEqual([
      expect.stringMatching(/^--session-secret: the session secret given repeats too few characters/),
      expect.stringMatching(/^--session-secret goes with --session/),
      '--agents-secrets must be refuse or warn, but is "maybe".',
    ]);
    expect(errors.join()).not.toContain('ABABABABABAB');
  });

  it('an agent presents its secret; a malformed one is refused without being quoted', () => {
    const base = ['--agent', 'http://hub:5180/control', '--session', 'K7QW2MZP9RTX'];
    expect(parseAgentArgs(base)).toMatchObject({ ok: true, options: { sessionSecret: null } });
    expect(parseAgentArgs([...base, '--session-secret', 'Q8vR2mT5xKpW'])).toMatchObject({ ok: true, options: { sessionSecret: 'Q8vR2mT5xKpW' } });
    const bad = parseAgentArgs([...base, '--session-secret', 'no spaces allowed']);
    expect(bad).toEqual({ ok: false, errors: [expect.stringMatching(/^--session-secret: a session secret is 10 to 64 letters and digits/)] });
    expect(JSON.stringify(bad)).not.toContain('no spaces allowed');
  });
});

describe('a session code chosen in advance', () => {
  it('follows the control hub\'s rule: its alphabet, 10 to 32 characters, not a few repeated', () => {
    expect(chosenCodeProblem('K7QW2MZP9RTX')).toBeNull();
    expect(chosenCodeProblem('K7QW2MZP9')).toMatch(/10 to 32 characters/);
    expect(chosenCodeProblem('K7QW2MZP9RTX0')).toMatch(/no I, O, 0 or 1/);
    expect(chosenCodeProblem('ABABABABABAB')).toMatch(/repeats too few characters/);
    expect(chosenCodeProblem('A'.repeat(33))).toMatch(/10 to 32 characters/);
  });

  it('an agent started first keeps trying to join for --join-timeout seconds (default: once)', () => {
    const base = ['--agent', 'http://hub:5180/control', '--session', 'K7QW2MZP9RTX'];
    expect(parseAgentArgs(base)).toMatchObject({ ok: true, options: { joinTimeoutSec: 0 } });
    expect(parseAgentArgs([...base, '--join-timeout', '300'])).toMatchObject({ ok: true, options: { joinTimeoutSec: 300 } });
    expect(parseAgentArgs([...base, '--join-timeout', 'soon'])).toEqual({ ok: false, errors: [expect.stringMatching(/--join-timeout must be seconds from 0 to 3600, but is "soon"/)] });
  });

  it('an agent runs its engines as threads, or as processes with open files of their own (--engines)', () => {
    const base = ['--agent', 'http://hub:5180/control', '--session', 'K7QW2MZP9RTX'];
    expect(parseAgentArgs(base)).toMatchObject({ ok: true, options: { engines: 'threads' } });
    expect(parseAgentArgs([...base, '--engines', 'processes'])).toMatchObject({ ok: true, options: { engines: 'processes' } });
    expect(parseAgentArgs([...base, '--engines', 'forks'])).toEqual({ ok: false, errors: ['--engines must be threads or processes, not "forks": threads share the runner\'s open files, processes each have their own.'] });
  });
});
