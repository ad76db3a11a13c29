import { describe, it, expect } from 'vitest';
import { bandwidthBytesPerSecond, connectionsFor } from '../../../core/guide/capacity-formulas.ts';
import { cell, EDITIONS, edition, flaggedCells, table, tiers, workedExample, type Cell } from '../../../core/guide/tables.ts';
import type { ColumnName, EditionId, GuideTable, Row } from '../../../core/guide/types.ts';

const MB = 1_024_000;
const KB = 1024;
const GUIDE_MESSAGE_BYTES = 2048;
const GUIDE_INTERVAL_MS = 1000;

// Bytes per second of `messagesPerSecond` guide-default messages, via the guide's formula.
const bytesOf = (messagesPerSecond: number) =>
  bandwidthBytesPerSecond({ connections: messagesPerSecond, messageBytes: GUIDE_MESSAGE_BYTES, sendIntervalMs: GUIDE_INTERVAL_MS });

describe('every flagged cell, with what the formula gives', () => {
  // Typed from reading the guide; published and formula values in the cell's unit.
  const expected = [
    { id: '2019', table: 'bigGroup', row: 'Unit1', column: 'inboundBytesPerSecond', kind: 'formula', published: 80 * KB, formula: 40 * KB },
    { id: '2019', table: 'bigGroup', row: 'Unit1', column: 'outboundBytesPerSecond', kind: 'formula', published: 8 * MB, formula: 4 * MB },
    { id: '2019', table: 'bigGroup', row: 'Unit10', column: 'inboundBytesPerSecond', kind: 'formula', published: 20 * KB, formula: 40 * KB },
    { id: '2019', table: 'smallGroup', row: 'Unit10', column: 'outboundBytesPerSecond', kind: 'limit', published: 50 * MB, formula: 40 * MB },
    { id: '2019', table: 'restSendToUser', row: 'Unit50', column: 'inboundBytesPerSecond', kind: 'formula', published: 10 * MB, formula: 20 * MB },
    { id: '2019', table: 'restSendToUser', row: 'Unit50', column: 'outboundBytesPerSecond', kind: 'formula', published: 10 * MB, formula: 20 * MB },
    { id: '2019', table: 'workedExample', row: 'case1', column: 'inboundMessagesPerSecond', kind: 'formula', published: 1, formula: 0.2 },
    { id: '2019', table: 'workedExample', row: 'case2', column: 'connections', kind: 'formula', published: 8000, formula: 7812.5 },
    { id: 'current', table: 'broadcast', row: 'Unit1000', column: 'outboundBytesPerSecond', kind: 'unit', published: 4000 * MB, formula: 4000 * MB },
    { id: 'current', table: 'bigGroup', row: 'Unit10', column: 'groupSize', kind: 'definition', published: 500, formula: 1000 },
    { id: 'current', table: 'bigGroup', row: 'Unit50', column: 'groupSize', kind: 'definition', published: 1000, formula: 5000 },
    { id: 'current', table: 'bigGroup', row: 'Unit100', column: 'groupSize', kind: 'definition', published: 2000, formula: 10000 },
    { id: 'current', table: 'bigGroup', row: 'Unit200', column: 'groupSize', kind: 'definition', published: 5000, formula: 20000 },
    { id: 'current', table: 'bigGroup', row: 'Unit500', column: 'groupSize', kind: 'definition', published: 10000, formula: 50000 },
    { id: 'current', table: 'bigGroup', row: 'Unit1000', column: 'groupSize', kind: 'definition', published: 20000, formula: 100000 },
    { id: 'current', table: 'bigGroup', row: 'Unit1000', column: 'outboundBytesPerSecond', kind: 'unit', published: 4000 * MB, formula: 4000 * MB },
    { id: 'current', table: 'workedExample', row: 'case2', column: 'connections', kind: 'formula', published: 8000, formula: 7812.5 },
  ];

  it('flags exactly these cells', () => {
    const key = (f: { id?: string; edition?: string; table: string; row: string; column: string }) => `${f.id ?? f.edition} ${f.table} ${f.row} ${f.column}`;
    expect(flaggedCells().map(key).sort()).toEqual(expected.map(key).sort());
  });

  it.each(expected)('$id $table $row $column: published $published, formula $formula ($kind)', (e) => {
    const flag = flaggedCells([e.id as EditionId]).find((f) => f.table === e.table && f.row === e.row && f.column === e.column);
    expect(flag).toMatchObject({ kind: e.kind, published: e.published, formulaValue: e.formula });
    expect(flag?.reason.length).toBeGreaterThan(20);
  });
});

// Recomputes every performance cell from the other cells of its row with the guide's formulas and
// definitions. A cell that disagrees must carry a flag whose formulaValue is what the rule gives;
// a cell that agrees must carry no flag (or only a misprinted-unit flag).
type Rule = { column: ColumnName; expected: number };
function rulesFor(name: string, row: Row, limits: Row | undefined): Rule[] {
  const rules: Rule[] = [];
  const inMsgs = row.inboundMessagesPerSecond;
  const outMsgs = row.outboundMessagesPerSecond;
  const connections = row.connections ?? Number.NaN;
  if (inMsgs !== undefined && row.inboundBytesPerSecond !== undefined) rules.push({ column: 'inboundBytesPerSecond', expected: bytesOf(inMsgs) });
  if (outMsgs !== undefined && row.outboundBytesPerSecond !== undefined) rules.push({ column: 'outboundBytesPerSecond', expected: bytesOf(outMsgs) });
  if (name === 'quickEvaluationEcho') {
    rules.push({ column: 'inboundBytesPerSecond', expected: bytesOf(connections) }, { column: 'outboundBytesPerSecond', expected: bytesOf(connections) });
  }
  if (name === 'quickEvaluationBroadcast') {
    // The guide's broadcast benchmark: 2 messages/s in, each delivered to every connection.
    rules.push({ column: 'inboundBytesPerSecond', expected: bytesOf(2) }, { column: 'outboundBytesPerSecond', expected: bytesOf(2 * connections) });
  }
  if (['echo', 'sendToConnection', 'restSendToUser'].includes(name) && inMsgs !== undefined) rules.push({ column: 'outboundMessagesPerSecond', expected: inMsgs });
  if (['broadcast', 'restBroadcast'].includes(name) && inMsgs !== undefined) rules.push({ column: 'outboundMessagesPerSecond', expected: inMsgs * connections });
  if (name === 'smallGroup' && inMsgs !== undefined) {
    rules.push({ column: 'groupSize', expected: 10 }, { column: 'groupCount', expected: connections / 10 }, { column: 'outboundMessagesPerSecond', expected: inMsgs * 10 });
  }
  if (name === 'bigGroup' && inMsgs !== undefined) {
    rules.push({ column: 'groupCount', expected: 10 }, { column: 'groupSize', expected: connections / 10 }, { column: 'outboundMessagesPerSecond', expected: inMsgs * (connections / 10) });
  }
  // "Do not exceed" the tier's maximum inbound (echo) and outbound (broadcast) bandwidth.
  if (limits && !name.startsWith('quickEvaluation')) {
    for (const column of ['inboundBytesPerSecond', 'outboundBytesPerSecond'] as const) {
      const value = row[column];
      const limit = limits[column];
      if (value !== undefined && limit !== undefined && value > limit) rules.push({ column, expected: limit });
    }
  }
  return rules;
}

function limitsOf(id: EditionId, tierName: string): Row | undefined {
  if (!tiers(id).some((t) => t.name === tierName)) return undefined;
  return {
    inboundBytesPerSecond: cell(table(id, 'quickEvaluationEcho'), tierName, 'inboundBytesPerSecond').value,
    outboundBytesPerSecond: cell(table(id, 'quickEvaluationBroadcast'), tierName, 'outboundBytesPerSecond').value,
  };
}

function checkCell(found: Cell, rules: Rule[]): void {
  const failing = rules.find((r) => found.value !== r.expected);
  if (failing) {
    expect(found.flag, `published ${found.value}, rule gives ${failing.expected}`).toBeDefined();
    expect(found.flag?.formulaValue).toBe(failing.expected);
  } else if (found.flag) {
    expect(found.flag.kind).toBe('unit');
    expect(found.flag.formulaValue).toBe(found.value);
  }
}

describe('formula sweep over every performance table', () => {
  for (const id of EDITIONS) {
    for (const [name, source] of Object.entries(edition(id).tables) as Array<[string, GuideTable]>) {
      if (source.kind === 'appServers' || source.kind === 'aspNetAppServers') continue;
      for (const [rowKey, row] of Object.entries(source.rows)) {
        it(`${id} ${name} ${rowKey}`, () => {
          const rules = rulesFor(name, row, limitsOf(id, rowKey));
          expect(rules.length).toBeGreaterThan(0);
          for (const column of Object.keys(row) as ColumnName[]) {
            checkCell(cell(source, rowKey, column), rules.filter((r) => r.column === column));
          }
        });
      }
    }
  }

  it('finds the formula contradictions the guide really has (2019 big group Unit1 inbound)', () => {
    // Guards the sweep itself: a rule set that accepted anything would pass the loop above.
    const row = table('2019', 'bigGroup').rows.Unit1 ?? {};
    const rule = rulesFor('bigGroup', row, limitsOf('2019', 'Unit1')).find((r) => r.column === 'inboundBytesPerSecond');
    expect(rule?.expected).toBe(40 * KB);
    expect(row.inboundBytesPerSecond).toBe(80 * KB);
  });
});

describe('worked example flags against the formula', () => {
  it.each(EDITIONS)('%s: 256 KB every 5 s at 400 MBps gives 7,812.5, published 8,000', (id) => {
    const example = workedExample(id);
    const row = example.rows.case2 ?? {};
    const formula = connectionsFor({
      bytesPerSecond: example.calculation.outboundBytesPerSecond,
      messageBytes: row.messageBytes ?? Number.NaN,
      sendIntervalMs: row.sendIntervalMs ?? Number.NaN,
    });
    const found = cell(example, 'case2', 'connections');
    expect(found.value).toBe(8000);
    expect(formula).toBe(7812.5);
    expect(found.flag?.formulaValue).toBe(formula);
  });

  it('2019: "1 inbound message per second" contradicts one 20-KB broadcast every 5 s', () => {
    const found = cell(workedExample('2019'), 'case1', 'inboundMessagesPerSecond');
    expect(found.value).toBe(1);
    expect(found.flag?.formulaValue).toBe(1000 / 5000);
  });

  it('current: the column is "concurrent inbound messages", which one sender satisfies, so no flag', () => {
    expect(cell(workedExample('current'), 'case1', 'concurrentInboundMessages').flag).toBeUndefined();
  });
});
