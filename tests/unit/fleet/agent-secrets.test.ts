import { describe, expect, it } from 'vitest';
import { AgentRelay } from '../../../core/fleet/agent-relay.ts';
import { agentsSecretsNotice, isPlainControl, newSessionSecret, sameSecret, sessionSecretProblem } from '../../../core/fleet/agent-secrets.ts';
import { Fleet } from '../../../core/fleet/fleet.ts';
import type { Credentials } from '../../../core/run-config/credentials.ts';
import { FakeTime } from '../../support/fake-time.ts';

const SWITCH = { refuse: '--agents-secrets refuse', allow: '--agents-secrets warn' };
const TOKEN = 'eyJ.TOKENVALUE-7f3a.sig';
const credentials: Credentials = { accessTokens: [TOKEN], headers: [['X-Api-Key', 'HEADERVALUE-91c2']], query: [['code', 'QUERYVALUE-55e0']] };

describe('credentials over a plain http control hub', () => {
  it('warns by default and refuses when asked, naming what would cross and never a value', () => {
    const warn = agentsSecretsNotice('http://hub:5180/control', credentials, 'warn', SWITCH);
    expect(warn?.level).toBe('warn');
    expect(warn?.text).toContain('The control hub http://hub:5180/control is plain http: the access token, the header values and the query values will cross it to the agents in plain text');
    expect(warn?.text).toContain('--agents-secrets refuse');
    const refuse = agentsSecretsNotice('http://hub:5180/control', credentials, 'refuse', SWITCH);
    expect(refuse?.level).toBe('refuse');
    expect(refuse?.text).toMatch(/^Nothing was sent: .*--agents-secrets warn\.$/);
    for (const text of [warn!.text, refuse!.text]) for (const value of ['TOKENVALUE', 'HEADERVALUE', 'QUERYVALUE']) expect(text).not.toContain(value);
  });

  it("the endpoint's own secrets are named among them, never their values", () => {
    const endpointOnly: Credentials = { accessTokens: [], headers: [], query: [], endpointQuery: [[['code', 'CODEVALUE-3b1d']]] };
    const warn = agentsSecretsNotice('http://hub:5180/control', endpointOnly, 'warn', SWITCH);
    expect(warn?.text).toContain("the endpoint's code will cross it to the agents in plain text");
    expect(warn?.text).not.toContain('CODEVALUE');
  });

  it('says nothing over https, or when the run has no credentials', () => {
    expect(agentsSecretsNotice('https://hub/control', credentials, 'refuse', SWITCH)).toBeNull();
    expect(agentsSecretsNotice('http://hub/control', undefined, 'refuse', SWITCH)).toBeNull();
    expect(agentsSecretsNotice('http://hub/control', { accessTokens: [], headers: [], query: [] }, 'refuse', SWITCH)).toBeNull();
    expect(isPlainControl('HTTP://hub/control')).toBe(true);
    expect(isPlainControl('not a url')).toBe(false);
  });
});

describe('session secrets', () => {
  it('draws 20 characters of the code alphabet, a fresh one each time, that pass its own check', () => {
    const a = newSessionSecret();
    expect(a).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{20}$/);
    expect(newSessionSecret()).not.toBe(a);
    expect(sessionSecretProblem(a)).toBeNull();
  });

  it('refuses short, odd or repetitive chosen secrets without quoting them', () => {
    for (const bad of ['SHORTQ7', 'WITH SPACE 12345', 'ABABABABABAB']) {
      const problem = sessionSecretProblem(bad);
      expect(problem).not.toBeNull();
      expect(problem).not.toContain(bad);
    }
  });

  it('compares only equal strings as the same', () => {
    expect(sameSecret('ABCDEFGHJK', 'ABCDEFGHJK')).toBe(true);
    expect(sameSecret('ABCDEFGHJL', 'ABCDEFGHJK')).toBe(false);
    expect(sameSecret('ABCDEFGHJ', 'ABCDEFGHJK')).toBe(false);
    expect(sameSecret(undefined, 'ABCDEFGHJK')).toBe(false);
    expect(sameSecret(12, 'ABCDEFGHJK')).toBe(false);
  });
});

describe('a Fleet with a session secret', () => {
  const SECRET = 'QWERTYUPASDFGHJK';
  const intro = (name: string, secret?: string) => JSON.stringify({ name, kind: 'node', threads: 1, client: 'node test', ...(secret === undefined ? {} : { secret }) });

  function fleetWithLog() {
    const time = new FakeTime();
    const sent: { id: string; text: string }[] = [];
    const fleet = new Fleet({ toAgent: async (id, text) => void sent.push({ id, text }) }, time, time, () => {}, SECRET);
    return { fleet, sent };
  }

  it('turns away an agent with no secret or the wrong one: only a refusal is sent to it, it is not listed, the lead is told why', () => {
    const { fleet, sent } = fleetWithLog();
    fleet.agentJoined('a1', intro('no-secret'));
    fleet.agentJoined('a2', intro('wrong-secret', 'ZXCVBNMLKJHGFDSA'));
    expect(fleet.agents()).toEqual([]);
    expect(fleet.refusals).toEqual([
      expect.stringMatching(/^Agent "no-secret" was refused: it presented no session secret, and the session code alone does not admit an agent\. It received nothing of the run\./),
      expect.stringMatching(/^Agent "wrong-secret" was refused: it presented a session secret that is not this session's/),
    ]);
    expect(sent.map(({ id, text }) => [id, JSON.parse(text).type])).toEqual([['a1', 'refused'], ['a2', 'refused']]);
    expect(JSON.stringify(sent) + fleet.refusals.join()).not.toContain(SECRET);
    expect(JSON.stringify(sent) + fleet.refusals.join()).not.toContain('ZXCVBNMLKJHGFDSA');
  });

  it('admits an agent that presents it, and keeps the secret out of the agent as listed', async () => {
    const { fleet, sent } = fleetWithLog();
    fleet.agentJoined('a1', intro('good', SECRET));
    // Its clock round begins after the join (queued behind none).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fleet.agents().map((agent) => agent.info.name)).toEqual(['good']);
    expect(JSON.stringify(fleet.agents())).not.toContain(SECRET);
    expect(JSON.parse(sent[0]!.text).type).toBe('clock-ping');
  });

  it('an agent told it is refused hears why', () => {
    const time = new FakeTime();
    const reasons: string[] = [];
    const relay = new AgentRelay({ toDashboard: async () => {} }, time, () => { throw new Error('no thread may start'); }, () => {}, () => {}, (reason) => reasons.push(reason));
    relay.handle(JSON.stringify({ type: 'refused', reason: 'Agent "x" was refused: it presented no session secret' }));
    expect(reasons).toEqual(['Agent "x" was refused: it presented no session secret']);
  });
});
