import { mount } from 'svelte';
import 'uplot/dist/uPlot.min.css';
import './app.css';
import AgentApp from './AgentApp.svelte';
import App from './App.svelte';
import { BrowserAgent } from './lib/browser-agent.svelte.ts';

// ?agent=CODE opens this page as an agent of another dashboard's run (see the Agents panel);
// &workers=N sets how many Web Workers it offers (1 to 8, default 2); #secret=S is the session's
// secret (core/fleet/agent-secrets.ts), in the fragment so no request carries it to a server.
const params = new URLSearchParams(location.search);
const session = params.get('agent');
const target = document.getElementById('app')!;
if (session) {
  const threads = Math.min(8, Math.max(1, Math.floor(Number(params.get('workers'))) || 2));
  const secret = new URLSearchParams(location.hash.slice(1)).get('secret');
  const agent = new BrowserAgent(`${location.origin}/control`, session.trim().toUpperCase(), threads, secret);
  void agent.join();
  mount(AgentApp, { target, props: { agent } });
} else {
  mount(App, { target });
}
