/**
 * One hub instance under two spellings is one instance: its identity key, the pairs a list holds
 * by spelling and by resolved address, the refusals of the form and the runner, and server
 * metrics from one process counted once.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalHost,
  instanceKey,
  sameAddressPairs,
  sameInstancePairs,
  sameInstanceText,
  sameMetricsText,
  validateRunConfig,
} from '../../core/run-config/index.ts';
import { parseCliArgs } from '../../cli/args.ts';
import { sameInstanceRefusals, type ResolveHost } from '../../cli/instance-check.ts';
import { combineServerRecords, type IdentifiedServerRecord } from '../../core/server-metrics/instances.ts';
import { emptyServerRecord, type ServerSecond } from '../../core/server-metrics/series.ts';

const HUB = 'http://127.0.0.1:5180/signalrbench';

describe('instanceKey', () => {
  const cases: [name: string, endpoint: string, key: string | null][] = [
    ['an address and port', HUB, '127.0.0.1:5180/signalrbench'],
    ['localhost is this machine', 'http://localhost:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['LOCALHOST with a trailing dot', 'http://LOCALHOST.:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['IPv6 loopback', 'http://[::1]:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['IPv6 loopback written long', 'http://[0:0:0:0:0:0:0:1]:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['IPv4 inside IPv6', 'http://[::ffff:127.0.0.1]:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['any address reaches this machine', 'http://0.0.0.0:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['IPv6 any address', 'http://[::]:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['IPv4 shorthand', 'http://127.1:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ['another loopback address is its own', 'http://127.0.0.2:5180/signalrbench', '127.0.0.2:5180/signalrbench'],
    ['trailing slashes dropped', `${HUB}//`, '127.0.0.1:5180/signalrbench'],
    ['query and fragment ignored', `${HUB}?x=1#top`, '127.0.0.1:5180/signalrbench'],
    ['path case kept', 'http://127.0.0.1:5180/SignalRBench', '127.0.0.1:5180/SignalRBench'],
    ['host case ignored', 'https://Hub.Example/signalrbench', 'hub.example:443/signalrbench'],
    ['http default port made explicit', 'http://hub.example/signalrbench', 'hub.example:80/signalrbench'],
    ['https default port written out', 'https://hub.example:443/signalrbench', 'hub.example:443/signalrbench'],
    ['the scheme counts through its port only', 'https://hub.example:80/signalrbench', 'hub.example:80/signalrbench'],
    ['the root', 'http://hub.example', 'hub.example:80/'],
    ['an IPv6 address', 'http://[FE80::1]:5180/hub', '[fe80::1]:5180/hub'],
    ['not a URL', 'localhost 5180', null],
    ['no host', 'file:///signalrbench', null],
  ];
  for (const [name, endpoint, key] of cases) {
    it(name, () => expect(instanceKey(endpoint)).toBe(key));
  }
});

describe('sameInstancePairs', () => {
  const cases: [name: string, urls: string[], pairs: [first: string, second: string, reaches: string][]][] = [
    ['two spellings of one instance', [HUB, 'http://localhost:5180/signalrbench'], [[HUB, 'http://localhost:5180/signalrbench', '127.0.0.1:5180/signalrbench']]],
    ['two instances', [HUB, 'http://127.0.0.1:5181/signalrbench'], []],
    ['two hubs of one app are two paths', [HUB, 'http://127.0.0.1:5180/other'], []],
    ['identical texts are a pair', [HUB, HUB], [[HUB, HUB, '127.0.0.1:5180/signalrbench']]],
    ['a third spelling is paired with the first', [HUB, 'http://127.0.0.1:5181/signalrbench', 'http://[::1]:5180/signalrbench/', 'http://localhost:5180/signalrbench'], [
      [HUB, 'http://[::1]:5180/signalrbench/', '127.0.0.1:5180/signalrbench'],
      [HUB, 'http://localhost:5180/signalrbench', '127.0.0.1:5180/signalrbench'],
    ]],
    ['one pair said once', ['http://localhost:5180/signalrbench', HUB, HUB], [['http://localhost:5180/signalrbench', HUB, '127.0.0.1:5180/signalrbench']]],
    ['texts that are not URLs left to their own check', ['x', 'x', HUB], []],
  ];
  for (const [name, urls, pairs] of cases) {
    it(name, () => expect(sameInstancePairs(urls).map((p) => [p.first, p.second, p.reaches])).toEqual(pairs));
  }
});

describe('sameAddressPairs', () => {
  const resolved = new Map<string, string[]>([
    ['myhost', ['10.0.0.5', 'fe80::5']],
    ['alias', ['10.0.0.5']],
    ['loop', ['::1']],
    ['elsewhere', ['10.0.0.9']],
  ]);
  const cases: [name: string, urls: string[], pairs: [first: string, second: string, reaches: string, resolved: string[]][]][] = [
    ['a name and its address', ['http://myhost:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench'], [['http://myhost:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench', '10.0.0.5:5180/signalrbench', ['myhost is 10.0.0.5, [fe80::5]']]]],
    ['its other family', ['http://[fe80::5]:5180/signalrbench', 'http://myhost:5180/signalrbench'], [['http://[fe80::5]:5180/signalrbench', 'http://myhost:5180/signalrbench', '[fe80::5]:5180/signalrbench', ['myhost is 10.0.0.5, [fe80::5]']]]],
    ['a name for this machine and localhost', ['http://loop:5180/signalrbench', 'http://localhost:5180/signalrbench'], [['http://loop:5180/signalrbench', 'http://localhost:5180/signalrbench', '127.0.0.1:5180/signalrbench', ['loop is 127.0.0.1']]]],
    ['two names on one address may be virtual hosts', ['http://myhost:5180/signalrbench', 'http://alias:5180/signalrbench'], []],
    ['other ports', ['http://myhost:5180/signalrbench', 'http://10.0.0.5:5181/signalrbench'], []],
    ['other addresses', ['http://elsewhere:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench'], []],
    ['a name that did not resolve is left to the run', ['http://nowhere:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench'], []],
    ['the spelling tells too', [HUB, 'http://localhost:5180/signalrbench'], [[HUB, 'http://localhost:5180/signalrbench', '127.0.0.1:5180/signalrbench', []]]],
    ['not transitive through names: the address pairs with each', ['http://myhost:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench', 'http://alias:5180/signalrbench'], [
      ['http://myhost:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench', '10.0.0.5:5180/signalrbench', ['myhost is 10.0.0.5, [fe80::5]']],
      ['http://10.0.0.5:5180/signalrbench', 'http://alias:5180/signalrbench', '10.0.0.5:5180/signalrbench', ['alias is 10.0.0.5']],
    ]],
  ];
  for (const [name, urls, pairs] of cases) {
    it(name, () => expect(sameAddressPairs(urls, resolved).map((p) => [p.first, p.second, p.reaches, p.resolved])).toEqual(pairs));
  }

  it('reads a resolver\'s addresses as the URL parser writes them', () => {
    expect(['::1', '[::1]', '::ffff:127.0.0.1', '0.0.0.0', 'FE80:0:0::5', 'MyHost.'].map(canonicalHost)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1', '[fe80::5]', 'myhost']);
  });
});

describe('the refusals', () => {
  const localhost = 'http://localhost:5180/signalrbench';
  const sentence = `Endpoints ${HUB} and ${localhost} both reach 127.0.0.1:5180/signalrbench: one hub instance, whose connections and server metrics would count as two. List each hub instance once.`;

  it('the form and the runner say one sentence for the endpoint list, beside its other problems', () => {
    const result = validateRunConfig({ endpointUrl: `${HUB}, ${localhost}`, connections: '0' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.find((p) => p.message === sentence)?.fields).toEqual(['endpointUrl']);
    expect(result.errors).toHaveLength(2);
    expect(sameInstanceText(sameInstancePairs([HUB, localhost])[0]!)).toBe(sentence);
    const parsed = parseCliArgs(['--endpoint', HUB, '--endpoint', localhost, '--connections', '0']);
    expect(parsed.ok === false && parsed.errors).toEqual(result.errors);
  });

  it('an identical text keeps its own sentence, said once', () => {
    const result = validateRunConfig({ endpointUrl: `${HUB},${HUB}` });
    expect(result.ok === false && result.errors).toEqual([`Endpoint lists ${HUB} more than once: list each hub instance once (the connections are spread evenly over the list).`]);
  });

  it('two instances pass', () => {
    expect(validateRunConfig({ endpointUrl: `${HUB},http://127.0.0.1:5181/signalrbench` }).ok).toBe(true);
  });

  it('the runner refuses one instance\'s /metrics given twice, by spelling', () => {
    const parsed = parseCliArgs(['--endpoint', HUB, '--endpoint', 'http://127.0.0.1:5181/signalrbench', '--server-metrics', 'http://127.0.0.1:5180/metrics', '--server-metrics', 'http://localhost:5180/metrics/']);
    expect(parsed.ok === false && parsed.errors).toEqual([
      '--server-metrics http://127.0.0.1:5180/metrics and http://localhost:5180/metrics/ both reach 127.0.0.1:5180/metrics: one instance\'s metrics would be summed twice. Give each instance\'s /metrics once, in the order of the endpoints.',
    ]);
    expect(parseCliArgs(['--endpoint', HUB, '--endpoint', 'http://127.0.0.1:5181/signalrbench', '--server-metrics', 'http://127.0.0.1:5180/metrics,http://127.0.0.1:5181/metrics']).ok).toBe(true);
  });
});

describe('sameInstanceRefusals (the runner, before the run)', () => {
  const resolver = (table: Record<string, string[]>, asked: string[] = []): ResolveHost => async (host) => {
    asked.push(host);
    if (!(host in table)) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return table[host]!;
  };

  it('says endpoints and metrics addresses only DNS tells are one instance, with what resolved', async () => {
    const refusals = await sameInstanceRefusals(
      ['http://myhost:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench', 'http://10.0.0.6:5180/signalrbench'],
      ['http://10.0.0.5:5180/metrics', 'http://myhost:5180/metrics', 'http://10.0.0.6:5180/metrics'],
      resolver({ myhost: ['10.0.0.5'] }),
    );
    expect(refusals).toEqual([
      'Endpoints http://myhost:5180/signalrbench and http://10.0.0.5:5180/signalrbench both reach 10.0.0.5:5180/signalrbench (myhost is 10.0.0.5): one hub instance, whose connections and server metrics would count as two. List each hub instance once.',
      sameMetricsText({ first: 'http://10.0.0.5:5180/metrics', second: 'http://myhost:5180/metrics', reaches: '10.0.0.5:5180/metrics', resolved: ['myhost is 10.0.0.5'] }),
    ]);
  });

  it('leaves the spelling\'s pairs to the options\' check, names that do not resolve to the run, and one endpoint alone', async () => {
    const asked: string[] = [];
    expect(await sameInstanceRefusals([HUB, 'http://localhost:5180/signalrbench'], [], resolver({}, asked))).toEqual([]);
    expect(await sameInstanceRefusals(['http://nowhere:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench'], [], resolver({}, asked))).toEqual([]);
    expect(await sameInstanceRefusals(['http://myhost:5180/signalrbench'], ['http://myhost:5180/metrics'], resolver({ myhost: ['10.0.0.5'] }, asked))).toEqual([]);
    // Addresses and this machine's names are never looked up; a list of one is not resolved.
    expect(asked).toEqual(['nowhere']);
  });

  it('does not wait for a resolver that does not answer', async () => {
    const never: ResolveHost = () => new Promise(() => {});
    const startedMs = Date.now();
    expect(await sameInstanceRefusals(['http://slow:5180/signalrbench', 'http://10.0.0.5:5180/signalrbench'], [], never, 50)).toEqual([]);
    expect(Date.now() - startedMs).toBeLessThan(2_000);
  });
});

describe('server metrics from one process (service_instance_id)', () => {
  const second = (n: number, figures: Partial<ServerSecond>): ServerSecond => ({ second: n, cpuPercent: null, connections: null, deliveriesPerSec: null, gcPauseMsPerSec: null, threadPoolQueue: null, workingSetBytes: null, kestrelConnections: null, kestrelQueued: null, ...figures });
  const record = (url: string, id: string | null, points: ServerSecond[], deliveries: number): IdentifiedServerRecord => ({ ...emptyServerRecord(url), points, deliveries, serviceInstanceId: id });
  const a = record('http://127.0.0.1:5180/metrics', 'hub-1', [second(1, { cpuPercent: 30, connections: 10, deliveriesPerSec: 100 }), second(2, { cpuPercent: 40, connections: 10, deliveriesPerSec: 100 })], 200);
  const aAgain = record('http://proxy:8080/metrics', 'hub-1', [second(1, { cpuPercent: 31, connections: 10, deliveriesPerSec: 100 })], 100);
  const b = record('http://127.0.0.1:5181/metrics', 'hub-2', [second(1, { cpuPercent: 20, connections: 5, deliveriesPerSec: 50 }), second(2, { cpuPercent: 20, connections: 5, deliveriesPerSec: 50 })], 100);

  it('are counted once, from the record with the most readings, and said', () => {
    const combined = combineServerRecords([aAgain, a, b]);
    expect(combined.points.map((p) => [p.connections, p.deliveriesPerSec, p.cpuPercent])).toEqual([[15, 150, 30], [15, 150, 40]]);
    expect(combined.deliveries).toBe(300);
    expect(combined.instances).toHaveLength(3);
    expect(combined.note).toBe('Server metrics at http://proxy:8080/metrics and http://127.0.0.1:5180/metrics come from one instance (service_instance_id "hub-1"): its figures are counted once, from http://127.0.0.1:5180/metrics, not summed. Give each instance\'s own /metrics once.');
  });

  it('are summed as before when each process is its own, or says nothing of itself', () => {
    for (const records of [[a, b], [{ ...a, serviceInstanceId: null }, { ...aAgain, serviceInstanceId: undefined }]]) {
      const combined = combineServerRecords(records);
      expect(combined.note).toBeUndefined();
      expect(combined.deliveries).toBe(records[0]!.deliveries! + records[1]!.deliveries!);
    }
  });
});
