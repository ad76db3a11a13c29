/**
 * A chart's columns ([seconds, ...one array per line], as uPlot takes them) kept from one second
 * to the next: a run's list of closed seconds only grows, so each update appends the new seconds
 * instead of remapping the whole run, and the per-second cost stays flat however long the run.
 * Pure.
 */

/** A chart value: null is a gap (no message that second), never drawn as 0. */
export type ChartValue = number | null;
/** [seconds, ...one column per line]. */
export type Columns = [number[], ...ChartValue[][]];

/** One line's value for the point at `index` of the list. */
export type Pick<P> = (point: P, index: number) => ChartValue;

/**
 * Columns of a growing list of points. `update` gives the same column arrays, extended, while the
 * list was only appended to and `key` is unchanged; anything else (a new run, a cut of the last
 * seconds once sending ends) builds fresh arrays, so a reader that holds the old ones can tell.
 */
export class ChartColumns<P extends { second: number }> {
  #points: readonly P[] = [];
  #key: string | null = null;
  #columns: Columns | null = null;

  constructor(private readonly picks: readonly Pick<P>[]) {}

  /** The columns of `points`; `key` names whatever else the picks and `x` read (a cut index, a
   *  config, the send clock's offset). `x`: a point's place on the time axis (default its second). */
  update(points: readonly P[], key = '', x: (point: P) => number = (point) => point.second): Columns {
    const appended = this.#columns !== null && key === this.#key && extends_(points, this.#points);
    if (!appended) this.#columns = [[], ...this.picks.map(() => [])];
    const columns = this.#columns!;
    for (let i = columns[0].length; i < points.length; i++) {
      const point = points[i]!;
      columns[0].push(x(point));
      for (let s = 0; s < this.picks.length; s++) (columns[s + 1] as ChartValue[]).push(this.picks[s]!(point, i));
    }
    this.#points = points;
    this.#key = key;
    // A new outer array each update (a reactive reader sees a change); the columns inside are shared.
    return [...columns] as Columns;
  }
}

/** Whether `next` starts with every point of `previous`, the same objects (closed seconds never change). */
function extends_<P>(next: readonly P[], previous: readonly P[]): boolean {
  if (next.length < previous.length) return false;
  for (let i = 0; i < previous.length; i++) if (next[i] !== previous[i]) return false;
  return true;
}
