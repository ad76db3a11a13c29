/** The server-metrics setting: the endpoint's /metrics by default, another address when typed, off when unticked. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ServerMetricsField from '../../src/components/ServerMetricsField.svelte';
import { ServerMetricsSettings } from '../../src/lib/server-metrics.svelte.ts';

describe('ServerMetricsSettings', () => {
  it('reads the endpoint\'s /metrics unless another address is typed, and nothing when off or mistyped', () => {
    const settings = new ServerMetricsSettings();
    expect(settings.urlFor('http://127.0.0.1:5180/signalrbench')).toBe('http://127.0.0.1:5180/metrics');
    settings.address = ' https://app.example/metrics ';
    expect(settings.urlFor('http://127.0.0.1:5180/signalrbench')).toBe('https://app.example/metrics');
    settings.address = 'app.example/metrics';
    expect(settings.problem).toMatch(/is not a URL/);
    expect(settings.urlFor('http://127.0.0.1:5180/signalrbench')).toBeNull();
    settings.address = '';
    settings.enabled = false;
    expect(settings.urlFor('http://127.0.0.1:5180/signalrbench')).toBeNull();
  });
});

describe('ServerMetricsField', () => {
  it('says at once what is wrong with a typed address, and that runs go without server metrics until then', () => {
    const settings = new ServerMetricsSettings();
    const target = document.createElement('div');
    const component = mount(ServerMetricsField, { target, props: { settings, disabled: false } });
    flushSync();
    expect(target.querySelector('[data-testid=server-metrics-address-error]')).toBeNull();
    settings.address = 'ftp://x/metrics';
    flushSync();
    expect(target.querySelector('[data-testid=server-metrics-address-error]')!.textContent).toBe('The server metrics address must start with http:// or https://, but is \'ftp://x/metrics\'. Until it is fixed, runs go without server metrics.');
    settings.enabled = false;
    flushSync();
    expect(target.querySelector('[data-testid=server-metrics-address]')).toBeNull();
    unmount(component);
  });
});
