// Structural checks on an edition's JSON, run once when it is first loaded, so that a bad edit of
// the data fails loudly with the place to fix instead of producing wrong capacity numbers later.
import type { GuideEdition, GuideTable } from './types.ts';
import { GUIDE_WORDS } from './words.ts';

const TIER_NAME = /^Unit\d+$/;
const CASE_NAME = /^case\d+$/;

/** Throws an Error naming the first problem found in the edition data; returns it typed if sound.
 *  A plain Error (internal): the editions are built into the tool, so a bad one is the tool's own bug. */
export function validateEdition(data: unknown, file: string): GuideEdition {
  const edition = data as GuideEdition;
  if (!edition || typeof edition !== 'object' || !edition.tables || !Array.isArray(edition.tiers)) {
    throw new Error(GUIDE_WORDS.notAnEdition({ file }));
  }
  let previousUnits = 0;
  for (const tier of edition.tiers) {
    if (!TIER_NAME.test(tier.name) || tier.units !== Number(tier.name.slice(4))) {
      throw new Error(`${file}: tier "${tier.name}" must be named "Unit<units>" with matching units.`);
    }
    if (tier.units <= previousUnits) throw new Error(`${file}: tiers must be listed in increasing units.`);
    previousUnits = tier.units;
  }
  for (const [name, table] of Object.entries(edition.tables)) {
    if (table) validateTable(table, `${file} tables.${name}`, TIER_NAME);
  }
  validateTable(edition.workedExample, `${file} workedExample`, CASE_NAME);
  return edition;
}

function validateTable(table: GuideTable, where: string, rowKey: RegExp): void {
  const columns = new Set(Object.keys(table.columns ?? {}));
  if (columns.size === 0) throw new Error(`${where}: lists no columns.`);
  for (const [key, row] of Object.entries(table.rows ?? {})) {
    if (!rowKey.test(key)) throw new Error(`${where}: row "${key}" does not match ${rowKey}.`);
    for (const [column, value] of Object.entries(row)) {
      if (!columns.has(column)) throw new Error(`${where}.${key}: column "${column}" is not declared in "columns".`);
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new Error(`${where}.${key}.${column}: must be a finite number, got ${JSON.stringify(value)}.`);
      }
    }
  }
  for (const [key, cells] of Object.entries(table.flags ?? {})) {
    for (const [column, flag] of Object.entries(cells ?? {})) {
      if (table.rows[key]?.[column as keyof typeof cells] === undefined) {
        throw new Error(`${where}: flag on ${key}.${column} points at no published cell.`);
      }
      if (!flag || typeof flag.formulaValue !== 'number' || !flag.reason) {
        throw new Error(`${where}: flag on ${key}.${column} needs a numeric formulaValue and a reason.`);
      }
    }
  }
}
