export { runProxy } from './run.js';
export type { RunningProxy } from './run.js';
export { createApp } from './app.js';
