import { describe, expect, it } from 'vitest';
import { OnScreenDraw } from '../../core/charts/on-screen.ts';

describe('OnScreenDraw', () => {
  it('draws each new data at once while the chart is on screen', () => {
    const draw = new OnScreenDraw<string>();
    expect(draw.update('second 1')).toBe('second 1');
    expect(draw.update('second 2')).toBe('second 2');
    expect(draw.seen(true)).toBeNull();
  });

  it('draws nothing off screen, then only the latest data, once, when the chart is seen', () => {
    const draw = new OnScreenDraw<string>();
    expect(draw.seen(false)).toBeNull();
    expect(draw.update('second 1')).toBeNull();
    expect(draw.update('second 2')).toBeNull();
    expect(draw.seen(true)).toBe('second 2');
    expect(draw.seen(true)).toBeNull();
    expect(draw.update('second 3')).toBe('second 3');
  });

  it('has nothing to draw when seen again without new data, nor when it goes off screen', () => {
    const draw = new OnScreenDraw<string>(false);
    expect(draw.onScreen).toBe(false);
    expect(draw.seen(true)).toBeNull();
    expect(draw.update('second 1')).toBe('second 1');
    expect(draw.seen(false)).toBeNull();
    expect(draw.update('second 2')).toBeNull();
    expect(draw.seen(false)).toBeNull();
    expect(draw.seen(true)).toBe('second 2');
  });
});
