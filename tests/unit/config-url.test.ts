import { describe, expect, it } from 'vitest';
import { configToQuery, queryToFields, queryToMetrics, setMetricsParam } from '../../core/run-config/config-url.ts';
import { validateRunConfig } from '../../core/run-config/config.ts';

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

describe('where the server\'s metrics are read, in the URL', () => {
  const link = (choice: { enabled: boolean; address: string }) => {
    const params = new URLSearchParams('connections=50');
    setMetricsParam(params, choice);
    return params.toString();
  };

  it('leaves the default out: on, from the endpoint\'s /metrics', () => {
    expect(link({ enabled: true, address: '  ' })).toBe('connections=50');
    expect(queryToMetrics('?connections=50')).toBeNull();
  });

  it('round-trips "off" and a typed address, trimmed', () => {
    expect(link({ enabled: false, address: 'http://app:8080/metrics' })).toBe('connections=50&metrics=off');
    expect(queryToMetrics(`?${link({ enabled: false, address: 'x' })}`)).toEqual({ enabled: false, address: '' });
    const typed = link({ enabled: true, address: ' http://app:8080/metrics ' });
    expect(typed).toBe('connections=50&metrics=http%3A%2F%2Fapp%3A8080%2Fmetrics');
    expect(queryToMetrics(`?${typed}`)).toEqual({ enabled: true, address: 'http://app:8080/metrics' });
  });

  it('replaces what an older link said, and keeps a wrong address as typed for the field to explain', () => {
    const params = new URLSearchParams('metrics=off');
    setMetricsParam(params, { enabled: true, address: '' });
    expect(params.has('metrics')).toBe(false);
    expect(queryToMetrics('?metrics=not%20a%20url')).toEqual({ enabled: true, address: 'not a url' });
  });
});
