// The client's own side of a run: the one rule for keeping its schedule, failed connects by cause
// and side, and its own limits in words, so that no view blames the service for the client. Pure.
export {
  addCauses,
  causesText,
  type ConnectCause,
  type ConnectCauseCounts,
  connectCauseOf,
  failuresOfSide,
  sideOfCause,
  timeOutCause,
} from './connect-causes.ts';
export { clientLimitReasons } from './own-limits.ts';
export {
  clientSchedule,
  type ClientSchedule,
  type ClientSecond,
  scheduleReasons,
  sendingSeconds,
  workerFellBehind,
} from './schedule.ts';
