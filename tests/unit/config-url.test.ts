import { describe, expect, it } from 'vitest';
import { configToQuery, queryToFields } from '../../core/config-url.ts';
import { validateRunConfig } from '../../core/run-config.ts';

describe('a configuration in the URL', () => {
  it('round-trips: the link validates to the same configuration', () => {
    const input = { endpointUrl: 'https://example.net/hubs/bench', scenario: 'bigGroup', transport: 'LongPolling', protocol: 'messagepack', connections: 120, workers: 3, senders: 12, warmupSec: 5, reconnect: true };
    const first = validateRunConfig(input);
    if (!first.ok) throw new Error(first.errors.join());
    const query = configToQuery(first.config);
    const second = validateRunConfig(queryToFields(`?${query}`));
    expect(second).toEqual(first);
  });

  it('leaves defaults out, so links stay short', () => {
    const result = validateRunConfig({ endpointUrl: 'http://127.0.0.1:5180/signalrbench', connections: 50 });
    if (!result.ok) throw new Error(result.errors.join());
    expect(configToQuery(result.config)).toBe('endpointUrl=http%3A%2F%2F127.0.0.1%3A5180%2Fsignalrbench&connections=50');
  });

  it('keeps what was typed, even when it is wrong, and ignores unknown parameters', () => {
    expect(queryToFields('?connections=-3&colour=blue')).toEqual({ connections: '-3' });
  });
});
