// Statistics of kept measurements: intervals by resampling a run's seconds. Pure.
export * from './resample.ts';
