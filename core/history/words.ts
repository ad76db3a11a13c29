/**
 * The history room's words: why a run cannot be renamed, kept or read back from a file. The
 * history, the recorder and the import (history.ts, recorder.ts, kept-run.ts) name the problem
 * and its values; only this file writes prose. Pure.
 */

/** An error's own message, or the thrown value as text. */
const said = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const HISTORY_WORDS = {
  emptyName: () => 'A run needs a name: type at least one character, or press Escape to keep the old one.',
  notFound: (p: { id: string }) => `No kept run has the id ${p.id}; it may have been deleted in another tab. Reload the history.`,
  /** The browser's storage refused a write of the run in progress. */
  notKept: (p: { error: unknown }) => `The run could not be kept in this browser: ${said(p.error)}. Download it as JSON before leaving the page.`,
  /** An imported file: */
  notJson: (p: { error: unknown }) => `This is not JSON (${said(p.error)}). Choose a .json file that SignalR Live Bench or its headless runner wrote.`,
  comparisonVersion: (p: { version: string; reads: number }) =>
    `This comparison was written in format version ${p.version}; this version of the tool reads version ${p.reads}.`,
  comparisonEmpty: () => 'This comparison file holds no runs: it is incomplete or damaged.',
  comparisonRunUnreadable: (p: { run: number; error: unknown }) => `Run ${p.run} of this comparison cannot be read: ${said(p.error)}`,
};
