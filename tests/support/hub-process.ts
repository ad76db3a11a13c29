/** The repo's one hub start-up (scripts/hub.mjs), for the tests' global setup and the tests. */
export { HUB_DLL, REPO_ROOT, runHubToExit, startHub, type HubExit, type HubStartOptions, type RunningHub } from '../../scripts/hub.mjs';
