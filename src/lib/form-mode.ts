/** A mode of the run form beside the single run (a comparison, …): its tab, its start button and
 *  what it adds under the form (see ConfigForm.svelte). */
import type { Snippet } from 'svelte';
import type { RunConfig } from '../../core/run-config/index.ts';

export interface FormMode {
  id: string;
  label: string;
  /** The start button's text, e.g. "Compare". */
  action: string;
  /** Runs the form's setup in this mode. */
  run: (config: RunConfig) => void;
  /** Whether the mode chooses transports itself: the form then hides its own and checks each. */
  choosesTransport?: boolean;
  /** The form's fields (input names) the mode sets itself and so ignores: hidden while it is chosen. */
  hides?: () => readonly string[];
  panel?: Snippet<[{ endpointUrl: string; connections: number }]>;
  /** What Start makes in this mode, in words, for the form's setup line (e.g. the capacity
   *  search's steps, from core/capacity searchPlanText); null while its own fields do not read. */
  describe?: () => string | null;
}
