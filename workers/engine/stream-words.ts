/**
 * The engine's sentences about streams and client results, apart from the logic that decides
 * them (stream-probe.ts, stream-sends.ts): a stream the probe refuses before the run, and a
 * stream that ended under a run.
 */

/** What a stream's first item is, for people: "numbers (its first item: 0)". */
function kindOf(item: unknown): string {
  if (typeof item === 'number' || typeof item === 'bigint') return `numbers (its first item: ${String(item)})`;
  if (typeof item === 'boolean') return `true or false (its first item: ${String(item)})`;
  if (item === null || item === undefined) return 'nulls (its first item: null)';
  if (typeof item === 'string') return `text (its first item: "${item.length > 40 ? `${item.slice(0, 40)}…` : item}")`;
  return `${Array.isArray(item) ? 'lists' : 'objects'} (its first item: ${clip(JSON.stringify(item))})`;
}

function clip(text: string | undefined): string {
  const whole = text ?? '?';
  return whole.length > 60 ? `${whole.slice(0, 60)}…` : whole;
}

export const STREAM_WORDS = {
  /** The probe's refusal of a stream whose items cannot carry the tool's text. The first part, up
   *  to "The hub profile", is what the diagnosis quotes. */
  notText: (endpointUrl: string, method: string, first: unknown, profileName: string) =>
    `The hub at ${endpointUrl} did not accept ${method}(…) as a stream of the tool's messages: ${method}'s stream yields ${kindOf(first)}; ` +
    `a stream whose items are not text cannot carry the tool's message. The hub profile "${profileName}" streams with ${method}: ` +
    'give it a hub method whose stream yields strings (IAsyncEnumerable<string>, ChannelReader<string>) built from "{message}" or "{stream}".',
  /** The probe's refusal of a stream the profile passes no text to stream back. */
  noCarrier: (endpointUrl: string, method: string, first: unknown, profileName: string) =>
    `The hub at ${endpointUrl} did not accept ${method}(…) as a stream of the tool's messages: ${method}'s stream yields ` +
    `${first === undefined ? 'nothing' : kindOf(first)}, and the profile passes it neither {message} nor {stream}, so no item can carry the tool's message. ` +
    `The hub profile "${profileName}" streams with ${method}: put "{message}" as the argument the hub streams back, or "{stream}" as its stream argument.`,
  /** Added to a client result's failure when the hub's question went unanswered: the client had
   *  no handler by that name ("Client didn't provide a result."); '' for any other failure. */
  unanswered: (said: string, answerMethod: string) =>
    /didn't provide a result/i.test(said)
      ? ` (the hub asked this connection a client method it does not answer: the profile answers ${answerMethod}; check answer.method against the hub's InvokeAsync<T>("…") call)`
      : '',
  /** A connection's stream ended under the run (the hub returned or threw, the connection went). */
  ended: (method: string, error?: unknown) =>
    error === undefined
      ? `${method} ended its stream before the run did; the next message opens it again.`
      : `${method}'s stream ended: ${error instanceof Error ? error.message : String(error)}; the next message opens it again.`,
};
