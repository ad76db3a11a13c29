/**
 * happy-dom matches no option with `:checked`, which Svelte's `bind:value` on a select reads on
 * change: answer it with the option the select has chosen, as a browser does. Call once per test
 * file of a form with selects.
 */
import { afterAll, beforeAll } from 'vitest';

export function answerCheckedOptions(): void {
  const querySelector = HTMLSelectElement.prototype.querySelector;
  beforeAll(() => {
    HTMLSelectElement.prototype.querySelector = function (this: HTMLSelectElement, selector: string) {
      return selector === ':checked' ? (this.options[this.selectedIndex] ?? null) : querySelector.call(this, selector);
    } as typeof querySelector;
  });
  afterAll(() => {
    HTMLSelectElement.prototype.querySelector = querySelector;
  });
}
