// A fleet of runner agents sized on paper for the guide's tiers, from measured per-agent figures.
export {
  CONTROL_MESSAGES_PER_THREAD_SECOND,
  MAX_AGENTS_PER_SESSION,
  MEASURED_AGENT,
  sizingMarkdown,
  sizingRow,
  sizingTable,
} from './fleet-sizing.ts';
