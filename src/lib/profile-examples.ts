/**
 * The hub profiles the form offers as examples: the documents in profiles/ (the chat tutorial's
 * hub, a request/response hub, the bundled contract's scenarios), read at build time, and the
 * built-in profiles of the bundled contract that no document there repeats. Each as the JSON
 * text the editor shows, so choosing one is the same as pasting it.
 */
import { BUILT_IN_PROFILES, checkHubProfile } from '../../core/profiles/index.ts';

export interface ProfileExample {
  /** The file's name without .json, or the bundled scenario's id. */
  id: string;
  /** The profile's own name. */
  label: string;
  text: string;
}

// Eager and raw: the documents are a few hundred bytes each, and the editor shows them as written.
const FILES = import.meta.glob('../../profiles/*.json', { eager: true, query: '?raw', import: 'default' }) as Record<string, string>;

function fromFiles(): ProfileExample[] {
  return Object.entries(FILES)
    .map(([path, text]) => {
      const checked = (() => {
        try {
          return checkHubProfile(JSON.parse(text));
        } catch {
          return null;
        }
      })();
      // A document that does not read is no example; its own tests name what is wrong.
      return checked?.ok ? { id: path.replace(/^.*\//, '').replace(/\.json$/, ''), label: checked.profile.name, text } : null;
    })
    .filter((example): example is ProfileExample => example !== null)
    .sort((a, b) => a.id.localeCompare(b.id));
}

export const PROFILE_EXAMPLES: readonly ProfileExample[] = (() => {
  const files = fromFiles();
  const names = new Set(files.map((f) => f.label));
  const builtIn = Object.entries(BUILT_IN_PROFILES)
    .filter(([, profile]) => !names.has(profile.name))
    .map(([id, profile]) => ({ id, label: profile.name, text: `${JSON.stringify(profile, null, 2)}\n` }));
  return [...files, ...builtIn];
})();
