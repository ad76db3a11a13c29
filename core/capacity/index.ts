// The capacity search: its settings, which load to try next, the verdict on each step, the
// answer in the guide's terms, and the document, CSV and report section it ends with. Pure.
export { answerLines, capacityAnswer, heldFigure, loadText } from './answer.ts';
export { capacityCsv, capacityReportTitle, capacitySection } from './capacity-export.ts';
export {
  capacityFromValue,
  type CapacityResult,
  type CapacityStep,
  judgedLoadOf,
  stepByIndex,
  upgradeCapacityResult,
} from './capacity-result.ts';
export { CapacitySearch, type StepRunner } from './capacity-search.ts';
export { maxSteps, type NextStep, searchPlanText } from './next-load.ts';
export {
  CAPACITY_DEFAULTS,
  type CapacitySettings,
  plannedSendRate,
  RAMP_UNITS,
  type RampKind,
  validateCapacitySettings,
} from './settings.ts';
export { GUIDE_LIMIT_MS, loadChartData } from './step-chart.ts';
export { limitedByText } from './step-judge.ts';
export { capacityStage } from './stage.ts';
