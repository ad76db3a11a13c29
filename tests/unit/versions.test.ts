// One version for the whole tool: package.json's, which the hub-sample's csproj repeats (a dotnet
// tool's version must be in its project) and CHANGELOG.md opens with. What each place prints is
// checked where it is printed (the runner's --version, the JSON, the CSV, the hub's start-up line).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json';
import { VERSIONS } from '../../core/history/index.ts';
import { versionLine } from '../../cli/version.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('the tool has one version', () => {
  it("the hub-sample's <Version> is package.json's", () => {
    const csproj = read('hub-sample/HubSample.csproj');
    expect(csproj.match(/<Version>([^<]+)<\/Version>/)?.[1]).toBe(pkg.version);
  });

  it('CHANGELOG.md has a section for it, the newest first', () => {
    const sections = [...read('CHANGELOG.md').matchAll(/^## (\S+)/gm)].map((m) => m[1]);
    expect(sections[0]).toBe(pkg.version);
  });

  it('the runner names it and the exact SignalR client it depends on', () => {
    expect(VERSIONS).toEqual({ toolVersion: pkg.version, signalrClientVersion: pkg.dependencies['@microsoft/signalr'] });
    expect(pkg.dependencies['@microsoft/signalr']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(versionLine()).toBe(`live-bench ${pkg.version} (@microsoft/signalr ${pkg.dependencies['@microsoft/signalr']}, Node ${process.version})`);
  });
});
