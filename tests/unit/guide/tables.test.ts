import { describe, it, expect } from 'vitest';
import {
  appServerTable,
  cell,
  edition,
  EDITIONS,
  scenarioTable,
  table,
  tier,
  tiers,
  workedExample,
} from '../../../core/guide/tables.ts';
import type { ColumnName, EditionId, TableName } from '../../../core/guide/types.ts';
import { parsePublishedBandwidth } from '../../../core/guide/units.ts';

// Expected values below are typed in from the guide's text (1 MB = 1,024,000 B, 1 KB = 1,024 B),
// independently of the JSON, so a transcription slip in the data fails here.
const MB = 1_024_000;
const KB = 1024;

describe('editions and tiers', () => {
  it('lists both editions, oldest first', () => {
    expect(EDITIONS).toEqual(['2019', 'current']);
  });

  it.each([
    { id: '2019' as EditionId, names: ['Unit1', 'Unit2', 'Unit5', 'Unit10', 'Unit20', 'Unit50', 'Unit100'] },
    { id: 'current' as EditionId, names: ['Unit1', 'Unit2', 'Unit10', 'Unit50', 'Unit100', 'Unit200', 'Unit500', 'Unit1000'] },
  ])('$id edition tiers in order', ({ id, names }) => {
    expect(tiers(id).map((t) => t.name)).toEqual(names);
  });

  it.each([
    { name: 'Unit100', p2: false },
    { name: 'Unit200', p2: true },
    { name: 'Unit1000', p2: true },
  ])('current $name requires Premium_P2: $p2 (units above 100 need it)', ({ name, p2 }) => {
    expect(tier('current', name).requiresPremiumP2).toBe(p2);
  });

  it('rejects an unknown tier, naming the valid ones', () => {
    expect(() => tier('current', 'Unit5')).toThrow(/Unknown tier "Unit5" in the current edition; use one of: Unit1, Unit2, Unit10/);
  });

  it('rejects an unknown edition', () => {
    expect(() => edition('2021' as EditionId)).toThrow(/Unknown guide edition "2021"/);
  });

  it('publishes the ASP.NET SignalR app-server tables only in 2019', () => {
    expect(cell(table('2019', 'aspNetEchoAppServers'), 'Unit100', 'appServers').value).toBe(40);
    expect(() => table('current', 'aspNetEchoAppServers')).toThrow(/current edition has no table "aspNetEchoAppServers"/);
  });

  it.each([
    { id: '2019' as EditionId, seeds: ['000', '001', '002', '003'] },
    { id: 'current' as EditionId, seeds: ['004'] },
  ])('$id names its source and seed files', ({ id, seeds }) => {
    const source = edition(id).source;
    expect(source.title).toBe('Performance guide for Azure SignalR Service');
    expect(source.seedFiles.map((f) => f.file.slice(0, 3))).toEqual(seeds);
  });
});

describe('published cells (values typed from the guide)', () => {
  const cases: Array<{ name: string; id: EditionId; table: TableName; row: string; column: ColumnName; value: number }> = [
    { name: '2019 Unit1 max inbound 2 MBps', id: '2019', table: 'quickEvaluationEcho', row: 'Unit1', column: 'inboundBytesPerSecond', value: 2 * MB },
    { name: '2019 Unit100 max outbound 400 MBps', id: '2019', table: 'quickEvaluationBroadcast', row: 'Unit100', column: 'outboundBytesPerSecond', value: 400 * MB },
    { name: '2019 broadcast inbound 4 KBps', id: '2019', table: 'broadcast', row: 'Unit20', column: 'inboundBytesPerSecond', value: 4 * KB },
    { name: '2019 small group Unit50 7,000 in/s', id: '2019', table: 'smallGroup', row: 'Unit50', column: 'inboundMessagesPerSecond', value: 7000 },
    { name: '2019 small group Unit10 2,500 in/s', id: '2019', table: 'smallGroup', row: 'Unit10', column: 'inboundMessagesPerSecond', value: 2500 },
    { name: '2019 send to connection Unit20 9,000/s', id: '2019', table: 'sendToConnection', row: 'Unit20', column: 'outboundMessagesPerSecond', value: 9000 },
    { name: '2019 send to connection Unit10 16 MBps', id: '2019', table: 'sendToConnection', row: 'Unit10', column: 'inboundBytesPerSecond', value: 16 * MB },
    { name: '2019 echo app servers Unit50 = 10', id: '2019', table: 'echoAppServers', row: 'Unit50', column: 'appServers', value: 10 },
    { name: '2019 ASP.NET small group web apps Unit50 = 32', id: '2019', table: 'aspNetSmallGroupAppServers', row: 'Unit50', column: 'appServers', value: 32 },
    { name: '2019 REST send to user Unit2 1.2 MBps', id: '2019', table: 'restSendToUser', row: 'Unit2', column: 'outboundBytesPerSecond', value: 1.2 * MB },
    { name: '2019 REST send to user Unit100 18,000/s', id: '2019', table: 'restSendToUser', row: 'Unit100', column: 'inboundMessagesPerSecond', value: 18000 },
    { name: 'current Unit1000 max inbound 2,000 MBps', id: 'current', table: 'quickEvaluationEcho', row: 'Unit1000', column: 'inboundBytesPerSecond', value: 2000 * MB },
    { name: 'current Unit500 max outbound 2,000 MBps', id: 'current', table: 'quickEvaluationBroadcast', row: 'Unit500', column: 'outboundBytesPerSecond', value: 2000 * MB },
    { name: 'current small group Unit100 10,000 in/s', id: 'current', table: 'smallGroup', row: 'Unit100', column: 'inboundMessagesPerSecond', value: 10000 },
    { name: 'current send to connection Unit20 20,000/s', id: 'current', table: 'sendToConnection', row: 'Unit20', column: 'inboundMessagesPerSecond', value: 20000 },
    { name: 'current echo app servers Unit1000 = 100', id: 'current', table: 'echoAppServers', row: 'Unit1000', column: 'appServers', value: 100 },
    { name: 'current big group app servers Unit10 = 2', id: 'current', table: 'bigGroupAppServers', row: 'Unit10', column: 'appServers', value: 2 },
    { name: 'current REST send to user Unit100 40 MBps', id: 'current', table: 'restSendToUser', row: 'Unit100', column: 'inboundBytesPerSecond', value: 40 * MB },
  ];
  it.each(cases)('$name', ({ id, table: name, row, column, value }) => {
    expect(cell(table(id, name), row, column).value).toBe(value);
  });

  it('returns a flagged cell with its flag', () => {
    const found = cell(scenarioTable('2019', 'bigGroup'), 'Unit1', 'inboundBytesPerSecond');
    expect(found.value).toBe(80 * KB);
    expect(found.publishedText).toBe('80 KBps');
    expect(found.flag?.formulaValue).toBe(40 * KB);
  });

  it('returns an unflagged cell without a flag', () => {
    expect(cell(scenarioTable('2019', 'bigGroup'), 'Unit2', 'inboundBytesPerSecond').flag).toBeUndefined();
  });

  it('keeps the current send-to-connection table as published: Unit20 instead of Unit10', () => {
    expect(Object.keys(scenarioTable('current', 'sendToConnection').rows)).toEqual(['Unit1', 'Unit2', 'Unit20', 'Unit50', 'Unit100', 'Unit200', 'Unit500', 'Unit1000']);
    expect(() => cell(scenarioTable('current', 'sendToConnection'), 'Unit10', 'connections')).toThrow(/no row "Unit10"/);
    expect(Object.keys(appServerTable('current', 'sendToConnection').rows)).toContain('Unit10');
  });

  it('rejects a column the table does not have', () => {
    expect(() => cell(appServerTable('2019', 'echo'), 'Unit1', 'inboundBytesPerSecond')).toThrow(/no column "inboundBytesPerSecond"/);
  });
});

describe('published bandwidth text matches the stored bytes', () => {
  // Every bandwidth cell's printed text, parsed with the guide's convention, must give the stored
  // number, except cells flagged for a misprinted unit, whose text cannot be read as bytes.
  for (const id of EDITIONS) {
    const sources = { ...edition(id).tables, workedExample: workedExample(id) };
    for (const [name, source] of Object.entries(sources)) {
      if (!source) continue;
      for (const [row, cells] of Object.entries(source.publishedText ?? {})) {
        for (const [column, text] of Object.entries(cells ?? {})) {
          if (!column.endsWith('BytesPerSecond') || text === undefined) continue;
          it(`${id} ${name} ${row} ${column} "${text}"`, () => {
            const found = cell(source, row, column as ColumnName);
            if (found.flag?.kind === 'unit') {
              expect(() => parsePublishedBandwidth(text)).toThrow(/Bit units/);
            } else {
              expect(parsePublishedBandwidth(text)).toBe(found.value);
            }
          });
        }
      }
    }
  }
});

describe('defaults and test environment', () => {
  it.each(EDITIONS)('%s defaults: 2,048 B every 1 s over WebSockets in default mode', (id) => {
    const d = edition(id).defaults;
    expect([d.messageBytes, d.sendIntervalMs, d.transport, d.serviceMode]).toEqual([2048, 1000, 'WebSockets', 'default']);
    expect(d.latencyRule).toMatchObject({ shareOfMessages: 0.99, underMs: 1000 });
  });

  it.each([
    { id: '2019' as EditionId, clients: 50, servers: 20 },
    { id: 'current' as EditionId, clients: 200, servers: 100 },
  ])('$id test environment: at most $clients client VMs and $servers app-server VMs', ({ id, clients, servers }) => {
    expect(edition(id).testEnvironment).toMatchObject({ maxClientVms: clients, maxAppServerVms: servers, sdkServerConnections: 15 });
  });
});
