/**
 * Which data a live chart draws, and when: a chart on screen draws each new data at once; one
 * off screen (below the fold, on a hidden page) keeps only the latest and draws it when it comes
 * on screen, so a chart nobody can see costs the page nothing each second and is current the
 * moment it is seen. The page's IntersectionObserver says what is on screen
 * (src/components/TimeChart.svelte). Pure.
 */
export class OnScreenDraw<T> {
  #onScreen: boolean;
  /** Data that came while off screen, not drawn yet; null when the drawn data is current. */
  #pending: { data: T } | null = null;

  /** `onScreen`: how a chart starts, before anything says where it is (true where nothing can). */
  constructor(onScreen = true) {
    this.#onScreen = onScreen;
  }

  get onScreen(): boolean {
    return this.#onScreen;
  }

  /** New data: returns it when it is to be drawn now, else null (kept until the chart is seen). */
  update(data: T): T | null {
    if (this.#onScreen) {
      this.#pending = null;
      return data;
    }
    this.#pending = { data };
    return null;
  }

  /** The chart came on screen or went off it: returns data to draw now (what came while it was
   *  off screen), else null. */
  seen(onScreen: boolean): T | null {
    this.#onScreen = onScreen;
    if (!onScreen || this.#pending === null) return null;
    const { data } = this.#pending;
    this.#pending = null;
    return data;
  }
}
