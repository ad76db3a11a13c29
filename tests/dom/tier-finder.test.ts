/** The tier finder sums a typed workload into a tier per edition and explains bad rows. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import TierFinder from '../../src/components/TierFinder.svelte';

function render() {
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(TierFinder, { target, props: {} });
  flushSync();
  const all = (selector: string) => [...target.querySelectorAll<HTMLElement>(selector)];
  const find = (testId: string) => target.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const text = (testId: string) => (find(testId)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  /** Types into field `name` of row `index` (0-based) the way a user does. */
  const type = (index: number, name: string, value: string) => {
    const field = all('[data-testid="finder-row"]')[index]?.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
    if (!field) throw new Error(`no field ${name} in row ${index}`);
    field.value = value;
    field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    flushSync();
  };
  const click = (element: HTMLElement | null | undefined) => {
    element?.click();
    flushSync();
  };
  return {
    all,
    find,
    text,
    type,
    click,
    destroy: () => {
      unmount(component);
      target.remove();
    },
  };
}

describe('TierFinder', () => {
  it('shows Unit1 of both editions for its starting row (1,000 echo connections at 2,048 B / 1 s)', () => {
    const { find, text, destroy } = render();
    expect(text('finder-result')).toContain('Total: 1,000 connections · 1,000 msg/s in, 1,000 out · 2 MBps in, 2 MBps out');
    expect(find('finder-edition-2019')?.dataset.tier).toBe('Unit1');
    expect(find('finder-edition-current')?.dataset.tier).toBe('Unit1');
    expect(text('finder-result')).toContain('App servers (ASP.NET Core SignalR): 1 app server');
    expect(text('finder-result')).toContain('server load stays under 70%');
    destroy();
  });

  it.each([
    { name: 'negative', value: '-5', error: 'Row 1: connections must be at least 1, but is -5.' },
    { name: 'fractional', value: '2.5', error: 'Row 1: connections must be a whole number, but is 2.5; round it.' },
    { name: 'empty', value: '', error: 'Row 1: connections is empty; enter a whole number of client connections, e.g. 1000.' },
  ])('explains a $name connection count in its row and shows no tier', ({ value, error }) => {
    const { find, text, type, destroy } = render();
    type(0, 'connections', value);
    expect(text('finder-row-error')).toBe(error);
    expect(find('finder-result')).toBeNull();
    expect(text('finder-error')).toBe('Fix row 1 to see a tier: the sum needs every row.');
    type(0, 'connections', '1000');
    expect(find('finder-row-error')).toBeNull();
    expect(find('finder-result')).not.toBeNull();
    destroy();
  });

  it('adds a broadcast ticker to a chat and moves to Unit10 (the guide\'s mixed use case)', () => {
    const { all, find, text, type, click, destroy } = render();
    type(0, 'connections', '4000');
    click(find('finder-add'));
    expect(all('[data-testid="finder-row"]')).toHaveLength(2);
    type(1, 'scenario', 'broadcast');
    type(1, 'connections', '6000');
    type(1, 'senders', '2');
    type(1, 'messageBytes', '100');
    expect(text('finder-result')).toContain('10,000 connections · 4,002 msg/s in, 16,000 out');
    expect(find('finder-edition-2019')?.dataset.tier).toBe('Unit10');
    expect(text('finder-edition-2019')).toContain("Unit5 does not fit: 10,000 connections exceed Unit5's 5,000.");
    expect(text('finder-result')).toContain('counted as 1,024 B');
    destroy();
  });

  it('shows group size only for group scenarios, and the routing caveats at Unit50', () => {
    const { all, find, text, type, destroy } = render();
    expect(all('[name="groupSize"]')).toHaveLength(0);
    type(0, 'scenario', 'smallGroup');
    expect(all('[name="groupSize"]')).toHaveLength(1);
    type(0, 'connections', '50000');
    type(0, 'senders', '5000');
    expect(find('finder-edition-current')?.dataset.tier).toBe('Unit50');
    expect(text('finder-edition-current')).toContain('their high routing cost is not included in Server Load');
    destroy();
  });

  it('names Premium_P2 above Unit100 and says when no 2019 tier fits', () => {
    const { find, text, type, destroy } = render();
    type(0, 'connections', '150000');
    expect(text('finder-edition-current')).toContain('Current edition: Unit200 (Premium_P2)');
    expect(text('finder-edition-current')).toContain('Unit sizes above 100 require scaling up to the Premium_P2 SKU.');
    expect(find('finder-edition-2019')?.dataset.tier).toBe('');
    expect(text('finder-edition-2019')).toContain('2019 edition: no published tier fits');
    destroy();
  });

  it('removing every row asks for one instead of failing', () => {
    const { all, find, text, click, destroy } = render();
    click(all('button.remove')[0]);
    expect(all('[data-testid="finder-row"]')).toHaveLength(0);
    expect(find('finder-result')).toBeNull();
    expect(text('finder-error')).toMatch(/^Add a row to describe the workload/);
    destroy();
  });
});
