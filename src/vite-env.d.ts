/**
 * Vite's build-time constants (`import.meta.env`) for the page's TypeScript: App.svelte reads
 * `import.meta.env.MODE` to keep the benchmark hooks in the bench build only.
 */
/// <reference types="vite/client" />
