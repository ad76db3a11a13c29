// Typed access to the guide's tables: editions, their tiers in order, a scenario's table, and one
// cell with its flag. Pure data access, no DOM: usable from the UI, Web Workers and Node.
import guide2019 from './data/guide-2019.json' with { type: 'json' };
import guideCurrent from './data/guide-current.json' with { type: 'json' };
import type {
  CellFlag,
  ColumnName,
  EditionId,
  GuideEdition,
  GuideScenario,
  GuideTable,
  Scenario,
  ServerlessScenario,
  TableName,
  Tier,
  WorkedExample,
} from './types.ts';
import { validateEdition } from './validate.ts';
import { GUIDE_WORDS } from './words.ts';

/** Both editions, oldest first. */
export const EDITIONS: readonly EditionId[] = ['2019', 'current'];

const RAW: Record<EditionId, { data: unknown; file: string }> = {
  '2019': { data: guide2019, file: 'data/guide-2019.json' },
  current: { data: guideCurrent, file: 'data/guide-current.json' },
};
const loaded = new Map<EditionId, GuideEdition>();

/** One edition's data, validated on first use. Throws for an unknown edition id. The lookups here
 *  take names from the code and the editions themselves, so a miss is a plain Error (internal). */
export function edition(id: EditionId): GuideEdition {
  const cached = loaded.get(id);
  if (cached) return cached;
  const raw = RAW[id];
  if (!raw) throw new Error(GUIDE_WORDS.unknownEdition({ id: String(id), editions: EDITIONS.join(', ') }));
  const data = validateEdition(raw.data, raw.file);
  loaded.set(id, data);
  return data;
}

/** The edition's tiers in increasing units (the tiers of its quick-evaluation tables). */
export function tiers(id: EditionId): readonly Tier[] {
  return edition(id).tiers;
}

/** One tier of an edition. Throws naming the valid tiers when the name is unknown. */
export function tier(id: EditionId, name: string): Tier {
  const found = tiers(id).find((t) => t.name === name);
  if (!found) {
    const names = tiers(id).map((t) => t.name).join(', ');
    throw new Error(GUIDE_WORDS.unknownTier({ tier: name, edition: id, tiers: names }));
  }
  return found;
}

/** A table by name. Throws when this edition does not publish it (e.g. ASP.NET tables after 2019). */
export function table(id: EditionId, name: TableName): GuideTable {
  const found = edition(id).tables[name];
  if (!found) {
    const names = Object.keys(edition(id).tables).join(', ');
    throw new Error(GUIDE_WORDS.noTable({ edition: id, table: name, tables: names }));
  }
  return found;
}

/** The case-study table of a scenario: its performance table, or its serverless-mode table. */
export function scenarioTable(id: EditionId, scenario: GuideScenario): GuideTable {
  return table(id, scenario);
}

/** The serverless-mode scenarios, in the guide's order. */
export const SERVERLESS_SCENARIOS: readonly ServerlessScenario[] = ['restBroadcast', 'restSendToUser'];

/** Whether a scenario runs in serverless mode (its messages come in through the REST API). */
export function isServerlessScenario(scenario: string): scenario is ServerlessScenario {
  return (SERVERLESS_SCENARIOS as readonly string[]).includes(scenario);
}

/** Where the guide is read (its source's docsPath as learn.microsoft.com serves it: the docs
 *  repository's articles/ under /azure/), at a section's anchor. Both editions link the page as
 *  published now: the 2019 text is no longer served. */
export function guideSectionUrl(id: EditionId, anchor: string): string {
  const page = edition(id).source.docsPath.replace(/^articles\//, 'azure/').replace(/\.md$/, '');
  return `${GUIDE_SITE}/${page}#${anchor}`;
}
const GUIDE_SITE = 'https://learn.microsoft.com';

/** The suggested app-server count table of a scenario (ASP.NET Core SignalR). */
export function appServerTable(id: EditionId, scenario: Scenario): GuideTable {
  return table(id, `${scenario}AppServers`);
}

/** The broadcast worked example (Unit100, 20 KB and 256 KB every 5 s). */
export function workedExample(id: EditionId): WorkedExample {
  return edition(id).workedExample;
}

/** Row keys of a table in published order (tier names, which may include tiers outside tiers()). */
export function rowKeys(source: GuideTable): string[] {
  return Object.keys(source.rows);
}

export interface Cell {
  /** The published value, in the column's unit (bandwidth in bytes per second). */
  value: number;
  /** Present when the published value contradicts the guide's own formula, definition or limits. */
  flag?: CellFlag;
  /** The cell as printed, for bandwidth cells ("2 MBps"). */
  publishedText?: string;
}

/** One cell of a table. Throws when the row or column is not published. */
export function cell(source: GuideTable, rowKey: string, column: ColumnName): Cell {
  const row = source.rows[rowKey];
  if (!row) {
    throw new Error(`"${source.title}" has no row "${rowKey}"; rows: ${rowKeys(source).join(', ')}.`);
  }
  const value = row[column];
  if (value === undefined) {
    throw new Error(`"${source.title}" has no column "${column}"; columns: ${Object.keys(row).join(', ')}.`);
  }
  const result: Cell = { value };
  const flag = source.flags?.[rowKey]?.[column];
  if (flag) result.flag = flag;
  const publishedText = source.publishedText?.[rowKey]?.[column];
  if (publishedText !== undefined) result.publishedText = publishedText;
  return result;
}

export interface FlaggedCell extends CellFlag {
  edition: EditionId;
  table: string;
  row: string;
  column: ColumnName;
  /** The published value kept in the data. */
  published: number;
}

/** Every flagged cell of the given editions (default both), worked example included. */
export function flaggedCells(ids: readonly EditionId[] = EDITIONS): FlaggedCell[] {
  const result: FlaggedCell[] = [];
  for (const id of ids) {
    const sources: Array<[string, GuideTable]> = [
      ...Object.entries(edition(id).tables).filter((entry): entry is [string, GuideTable] => !!entry[1]),
      ['workedExample', edition(id).workedExample],
    ];
    for (const [name, source] of sources) {
      for (const [row, cells] of Object.entries(source.flags ?? {})) {
        for (const [column, flag] of Object.entries(cells ?? {})) {
          const published = source.rows[row]?.[column as ColumnName] ?? Number.NaN;
          result.push({ ...flag, edition: id, table: name, row, column: column as ColumnName, published });
        }
      }
    }
  }
  return result;
}
