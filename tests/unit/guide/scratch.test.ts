import { it, expect } from 'vitest';
import { flaggedCells, tiers } from '../../../core/guide/tables.ts';
it('loads', () => { expect(tiers('current').length).toBe(8); console.log(flaggedCells().length); });
