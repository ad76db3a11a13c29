import { describe, expect, it } from 'vitest';
import { bounds, breakConfirmed, maxSteps, nextStep, rampLoads, searchPlanText, type JudgedLoad } from '../../../core/capacity/next-load.ts';
import type { CapacitySettings } from '../../../core/capacity/settings.ts';

const settings = (over: Partial<CapacitySettings> = {}): CapacitySettings => ({ ramp: 'rate', start: 100, step: 100, max: 500, stepSec: 4, settleSec: 1, bisectSteps: 2, ...over });
const held = (load: number, phase: JudgedLoad['phase'] = 'ramp'): JudgedLoad => ({ load, phase, passed: true });
const broke = (load: number, phase: JudgedLoad['phase'] = 'ramp'): JudgedLoad => ({ load, phase, passed: false });

describe('step planning', () => {
  it('climbs from start by step and ends on the maximum, never above it', () => {
    expect(rampLoads({ start: 100, step: 100, max: 500 })).toEqual([100, 200, 300, 400, 500]);
    expect(rampLoads({ start: 100, step: 150, max: 500 })).toEqual([100, 250, 400, 500]);
    expect(rampLoads({ start: 500, step: 10, max: 500 })).toEqual([500]);
  });

  it('starts at the start load', () => {
    expect(nextStep(settings(), [])).toEqual({ load: 100, phase: 'ramp' });
  });

  it('goes on climbing while every step holds', () => {
    expect(nextStep(settings(), [held(100), held(200)])).toEqual({ load: 300, phase: 'ramp' });
  });

  it('ends after the maximum held: nothing broke', () => {
    expect(nextStep(settings(), [100, 200, 300, 400, 500].map((l) => held(l)))).toBeNull();
  });

  it('runs the first step once more when it broke, then ends', () => {
    expect(nextStep(settings(), [broke(100)])).toEqual({ load: 100, phase: 'confirm' });
    expect(nextStep(settings(), [broke(100), broke(100, 'confirm')])).toBeNull();
  });

  it('ends when a step could not be judged (stopped or nothing measured)', () => {
    expect(nextStep(settings(), [held(100), { load: 200, phase: 'ramp', passed: null }])).toBeNull();
  });

  it('counts the ramp, the bisections and the confirming run as the most steps', () => {
    expect(maxSteps(settings())).toBe(8);
  });
});

describe('bisection', () => {
  it('tries the middle between the last held and the first broken load', () => {
    expect(nextStep(settings(), [held(100), held(200), broke(300)])).toEqual({ load: 250, phase: 'bisect' });
  });

  it('narrows down on the side that broke', () => {
    expect(nextStep(settings(), [held(100), held(200), broke(300), broke(250, 'bisect')])).toEqual({ load: 225, phase: 'bisect' });
  });

  it('narrows up on the side that held', () => {
    expect(nextStep(settings(), [held(100), held(200), broke(300), held(250, 'bisect')])).toEqual({ load: 275, phase: 'bisect' });
  });

  it('stops bisecting after the settled number of bisections, and runs the lowest break once more', () => {
    const bisected = [held(100), held(200), broke(300), held(250, 'bisect'), broke(275, 'bisect')];
    expect(nextStep(settings(), bisected)).toEqual({ load: 275, phase: 'confirm' });
    expect(nextStep(settings(), [...bisected, broke(275, 'confirm')])).toBeNull();
    expect(nextStep(settings({ bisectSteps: 0 }), [held(100), broke(200)])).toEqual({ load: 200, phase: 'confirm' });
  });

  it('stops bisecting when no whole load is left between the bounds', () => {
    expect(nextStep(settings({ start: 10, step: 1, max: 20, bisectSteps: 5 }), [held(10), broke(11)])).toEqual({ load: 11, phase: 'confirm' });
  });

  it('takes the highest held load below the lowest broken one as the bounds', () => {
    // A noisy machine: 300 held after 250 broke; the capacity is not above the lowest break.
    expect(bounds([held(100), held(200), broke(250), held(300)])).toEqual({ held: 200, broke: 250 });
    expect(bounds([broke(100)])).toEqual({ held: null, broke: 100 });
    expect(bounds([held(100)])).toEqual({ held: 100, broke: null });
  });
});

describe('confirming the break', () => {
  it('is confirmed when the lowest failing load fails again', () => {
    expect(breakConfirmed([held(100), broke(200), broke(200, 'confirm')])).toBe(true);
  });

  it('is unconfirmed when it held the second time, and the load that failed once is still not taken as held', () => {
    const judged = [held(100), broke(200), held(200, 'confirm')];
    expect(breakConfirmed(judged)).toBe(false);
    expect(bounds(judged)).toEqual({ held: 100, broke: 200 });
    expect(nextStep(settings({ bisectSteps: 0 }), judged)).toBeNull();
  });

  it('is not known before the load was run again, or with nothing broken', () => {
    expect(breakConfirmed([held(100), broke(200)])).toBeNull();
    expect(breakConfirmed([held(100), broke(200), { load: 200, phase: 'confirm', passed: null }])).toBeNull();
    expect(breakConfirmed([held(100), held(200)])).toBeNull();
  });

  it('confirms the lowest break, not an earlier higher one', () => {
    const judged = [held(100), held(200), broke(300), broke(250, 'bisect'), held(225, 'bisect')];
    expect(nextStep(settings(), judged)).toEqual({ load: 250, phase: 'confirm' });
  });
});

describe('a service that stopped answering', () => {
  const gone = (load: number, phase: JudgedLoad['phase'] = 'bisect'): JudgedLoad => ({ load, phase, passed: false, unreachable: true });

  it('ends the search: nothing more can be learnt from a service that opens no connection', () => {
    expect(nextStep(settings(), [held(100), broke(200), gone(150)])).toBeNull();
    expect(nextStep(settings(), [gone(100, 'ramp')])).toBeNull();
  });

  it('the break stays the step that broke with connections open, below which the service held', () => {
    expect(bounds([held(100), broke(200), gone(150)])).toEqual({ held: 100, broke: 200 });
    expect(breakConfirmed([held(100), broke(200), gone(150)])).toBeNull();
  });

  it('a service that opened nothing from the first step broke there', () => {
    expect(bounds([gone(100, 'ramp')])).toEqual({ held: null, broke: 100 });
  });
});

describe('the search in words, before it starts', () => {
  it('says the steps it will make at most, their length, the ramp and what follows the break', () => {
    expect(searchPlanText(settings())).toBe("a search of at most 8 steps of 4 s (the first 1 s of each not judged): 100 to 500 msg/s by 100 until a step breaks the guide's rule, then 2 bisections and the break run again");
    expect(searchPlanText(settings({ ramp: 'connections', start: 1_000, step: 1_000, max: 5_000, bisectSteps: 0 }))).toMatch(/^a search of at most 6 steps .*: 1,000 to 5,000 connections by 1,000 until a step breaks the guide's rule, then the break run again$/);
  });
});
