/**
 * Skip negotiation (core/run-config/skip-negotiation.ts): refused by field where the client needs the
 * negotiate answer, named the same in the label, the link, the kept document and the runner's
 * options, and a hub that refuses the direct WebSocket worded as the client's setting.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseCliArgs } from '../../cli/args.ts';
import { configToQuery, queryToFields } from '../../core/run-config/config-url.ts';
import { DEFAULTS, validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { combinationLabel, defaultRunName } from '../../core/run-config/display-names.ts';
import { clientLimitReasons, connectCauseOf, sideOfCause } from '../../core/client/index.ts';
import { classifySignalRError } from '../../signalr/errors.ts';

const endpointUrl = 'http://127.0.0.1:5180/signalrbench';

function problemsOf(input: Partial<Record<keyof RunConfig, unknown>>) {
  const result = validateRunConfig({ endpointUrl, skipNegotiation: true, ...input });
  return result.ok ? [] : result.problems;
}

describe('skip negotiation, validated by field', () => {
  it('is off by default and accepted over WebSockets with the echo', () => {
    const off = validateRunConfig({ endpointUrl });
    expect(off.ok && off.config.skipNegotiation).toBe(false);
    const on = validateRunConfig({ endpointUrl, skipNegotiation: 'true', reconnect: true });
    expect(on.ok && on.config.skipNegotiation).toBe(true);
  });

  it('refuses another transport, naming both fields', () => {
    const [problem, ...rest] = problemsOf({ transport: 'LongPolling' });
    expect(rest).toEqual([]);
    expect(problem!.fields).toEqual(['skipNegotiation', 'transport']);
    expect(problem!.message).toMatch(/works over WebSockets only .*LongPolling.*Choose WebSockets, or turn skip negotiation off/);
  });

  it('refuses stateful reconnect, which the negotiate answer grants', () => {
    const problems = problemsOf({ reconnect: true, statefulReconnect: true });
    expect(problems.map((p) => p.fields)).toEqual([['skipNegotiation', 'statefulReconnect']]);
    expect(problems[0]!.message).toMatch(/granted in the negotiate answer/);
  });

  it('refuses a run that needs the hub\'s connection ids, saying the id stays null', () => {
    const scenario = problemsOf({ scenario: 'sendToConnection' });
    expect(scenario.map((p) => p.fields)).toEqual([['skipNegotiation', 'scenario']]);
    expect(scenario[0]!.message).toMatch(/learns its id only from the negotiate answer.*connectionId is null/);
    const profile = problemsOf({ hubProfile: readFileSync('profiles/bench-send-to-connection.json', 'utf8') });
    expect(profile.map((p) => p.fields)).toEqual([['skipNegotiation', 'hubProfile']]);
    expect(profile[0]!.message).toMatch(/\{target\}/);
  });

  it('refuses the profiles that name a connection by its hub id: {excluded} of group except, {target} of a client result', () => {
    for (const [file, placeholder] of [['profiles/group-except.json', '{excluded}'], ['profiles/client-result.json', '{target}']] as const) {
      const problems = problemsOf({ hubProfile: readFileSync(file, 'utf8') });
      expect(problems.map((p) => p.fields), file).toEqual([['skipNegotiation', 'hubProfile']]);
      expect(problems[0]!.message).toContain(`by its hub id (${placeholder})`);
    }
  });

  it('accepts a profile using {connection}: the run\'s own index, not the hub\'s id', () => {
    expect(problemsOf({ hubProfile: readFileSync('profiles/chat-rooms.json', 'utf8') })).toEqual([]);
  });

  it('refuses a value that is not a yes or no', () => {
    expect(problemsOf({ skipNegotiation: 'maybe' })).toEqual([{ fields: ['skipNegotiation'], message: 'Skip negotiation must be true or false, but is "maybe".' }]);
  });
});

describe('skip negotiation, named in one place', () => {
  const checked = validateRunConfig({ endpointUrl, connections: 50, skipNegotiation: true });
  if (!checked.ok) throw new Error(checked.errors.join());
  const config = checked.config;

  it('in the label and the run\'s default name', () => {
    expect(combinationLabel(config)).toBe('WebSockets + JSON, negotiation skipped');
    expect(defaultRunName(config)).toBe('Echo · WebSockets + JSON, negotiation skipped · 50 connections');
    expect(combinationLabel({ ...config, skipNegotiation: false })).toBe('WebSockets + JSON');
  });

  it('round-trips through the link and the kept document', () => {
    const query = configToQuery(config);
    expect(query).toContain('skipNegotiation=true');
    expect(validateRunConfig(queryToFields(`?${query}`))).toEqual(checked);
    expect(validateRunConfig(JSON.parse(JSON.stringify(config)) as RunConfig)).toEqual(checked);
  });

  it('leaves a run kept before the setting existed as negotiating, with no parameter in its link', () => {
    const old: RunConfig = { ...DEFAULTS, endpointUrl };
    delete old.skipNegotiation;
    expect(configToQuery(old)).toBe(`endpointUrl=${encodeURIComponent(endpointUrl)}`);
    expect(combinationLabel(old)).toBe('WebSockets + JSON');
  });

  it('is the runner\'s --skip-negotiation, refused there with exit-2 errors by the same rules', () => {
    const parsed = parseCliArgs(['--endpoint', endpointUrl, '--skip-negotiation']);
    expect(parsed.ok === true && parsed.options.config.skipNegotiation).toBe(true);
    const refused = parseCliArgs(['--endpoint', endpointUrl, '--skip-negotiation', '--transport', 'ServerSentEvents']);
    expect(refused.ok === false && refused.errors).toEqual([expect.stringMatching(/^Skip negotiation works over WebSockets only/)]);
  });
});

describe('a hub that refuses the WebSocket opened without negotiate', () => {
  const context = { endpointUrl, transport: 'WebSockets', protocol: 'json', reconnect: false, skipNegotiation: true } as const;
  const failed = (socket: string) => new Error(`WebSocket failed to connect. The connection could not be found on the server, either the endpoint may not be a SignalR endpoint, the connection ID is not present on the server, or there is a proxy blocking WebSockets. If you have multiple servers check that sticky sessions are enabled. (the socket said: ${socket})`);

  it('says the hub needs negotiation first, and counts it as the client\'s setting', () => {
    const classified = classifySignalRError(failed('Unexpected server response: 404'), context);
    expect(classified.kind).toBe('transport');
    expect(classified.message).toBe(`WebSockets (json, negotiation skipped) to ${endpointUrl}: the hub refused the WebSocket opened without negotiate (HTTP 404): this hub needs negotiation: leave --skip-negotiation off (the dashboard: Advanced → Skip negotiation). Azure SignalR Service, and a hub behind a proxy that routes by the negotiate's connection token, cannot be reached without it.`);
    expect(classified.cause).toBe('negotiationSkipped');
    expect(sideOfCause('negotiationSkipped')).toBe('client');
    expect(clientLimitReasons({ connections: 4, connectionsFailed: 4, connectCauses: { negotiationSkipped: 4 }, workers: [], workerFailures: [] })).toEqual([
      'could not open 4 connections with its own settings: the hub refused WebSockets opened without negotiate (it needs negotiation: leave --skip-negotiation off)',
    ]);
  });

  it('in a browser, which says no status: the sentence, if the hub is running', () => {
    const browser = classifySignalRError(new Error('WebSocket failed to connect. The connection could not be found on the server.'), context);
    expect(browser.message).toContain(': the WebSocket opened without negotiate failed, and a browser does not say why: if the hub is running, this hub needs negotiation: leave --skip-negotiation off');
    // A hub too busy to take the upgrade fails the same way in a browser: whose it was is unknown.
    expect(browser.cause).toBe('other');
    expect(sideOfCause(browser.cause!)).toBe('unknown');
  });

  it('leaves a busy or failing server\'s status to the service, not to the skipped negotiation', () => {
    for (const status of ['503', '502', '500', '429', '408']) {
      const classified = classifySignalRError(failed(`Unexpected server response: ${status}`), context);
      expect(classified.message).not.toMatch(/needs negotiation/);
      expect(classified.cause).toBe('httpStatus');
      expect(sideOfCause(classified.cause!)).toBe('service');
    }
    expect(classifySignalRError(failed('Unexpected server response: 400'), context).cause).toBe('negotiationSkipped');
  });

  it('leaves a refused port, a refused token and a negotiating run to their own causes', () => {
    expect(classifySignalRError(failed('connect ECONNREFUSED 127.0.0.1:5180'), context).cause).toBe('refused');
    expect(classifySignalRError(failed('Unexpected server response: 401'), context).message).not.toMatch(/needs negotiation/);
    expect(classifySignalRError(failed('Unexpected server response: 404'), { ...context, skipNegotiation: false }).message).not.toMatch(/needs negotiation/);
    expect(classifySignalRError(failed('socket hang up'), context).cause).toBe('reset');
    expect(connectCauseOf('WebSocket failed to connect.')).toBe('other');
  });
});
