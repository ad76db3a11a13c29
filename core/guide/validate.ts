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
      throw new Error(GUIDE_WORDS.tierMisnamed({ file, tier: tier.name }));
    }
    if (tier.units <= previousUnits) throw new Error(GUIDE_WORDS.tiersUnordered({ file }));
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
  if (columns.size === 0) throw new Error(GUIDE_WORDS.noColumns({ where }));
  for (const [key, row] of Object.entries(table.rows ?? {})) {
    if (!rowKey.test(key)) throw new Error(GUIDE_WORDS.badRowKey({ where, key, pattern: String(rowKey) }));
    for (const [column, value] of Object.entries(row)) {
      if (!columns.has(column)) throw new Error(GUIDE_WORDS.undeclaredColumn({ where, key, column }));
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new Error(GUIDE_WORDS.notFinite({ where, key, column, value: String(JSON.stringify(value)) }));
      }
    }
  }
  for (const [key, cells] of Object.entries(table.flags ?? {})) {
    for (const [column, flag] of Object.entries(cells ?? {})) {
      if (table.rows[key]?.[column as keyof typeof cells] === undefined) {
        throw new Error(GUIDE_WORDS.flagOnNothing({ where, key, column }));
      }
      if (!flag || typeof flag.formulaValue !== 'number' || !flag.reason) {
        throw new Error(GUIDE_WORDS.flagIncomplete({ where, key, column }));
      }
    }
  }
}
