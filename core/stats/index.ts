// Statistics of kept measurements: intervals by resampling a run's seconds. Pure.
export {
  countAbove,
  type CountedValues,
  type PercentileInterval,
  percentileOf,
  rankOf,
  resampledInterval,
  seededRandom,
} from './resample.ts';
