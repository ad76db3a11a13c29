/**
 * The page shown and the kept run opened, as the address's fragment says them, so Back and
 * Forward walk them and a bookmark reopens a kept run on the machine that keeps it:
 * "#history/run/<id>", "#history", "#finder"; the Live page has none. The query string is the
 * run form's setup (core/run-config/config-url.ts) and is left alone. Pure.
 */
export type PageId = 'run' | 'finder' | 'history';

export interface PageRoute {
  page: PageId;
  /** The kept run opened in History (a search opens as one of its steps); null: the list. */
  runId: string | null;
}

export function routeOf(hash: string): PageRoute {
  const [page = '', kind, ...rest] = hash.replace(/^#/, '').split('/');
  if (page === 'finder') return { page: 'finder', runId: null };
  if (page !== 'history') return { page: 'run', runId: null };
  const id = kind === 'run' ? decodeURIComponent(rest.join('/')) : '';
  return { page: 'history', runId: id === '' ? null : id };
}

/** The fragment of a route, "" for the Live page. */
export function hashOf(route: PageRoute): string {
  if (route.page === 'finder') return '#finder';
  if (route.page === 'history') return route.runId === null ? '#history' : `#history/run/${encodeURIComponent(route.runId)}`;
  return '';
}
