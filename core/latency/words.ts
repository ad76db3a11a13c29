/**
 * The latency room's words: its only sentence is the tool's own error when a histogram that is
 * not one of hdr-histogram-js's JS histograms (the WebAssembly kind) reaches the bucket walks of
 * latency.ts. A bug of the tool, never of a run; worded here all the same. Pure.
 */
export const LATENCY_WORDS = {
  /** `use`: what the bucket walk does ("be posted by bucket", "take posted buckets", …). */
  notBucketed: (p: { use: string }) => `Only hdr-histogram-js's JS histograms can ${p.use}.`,
};
