/**
 * The HTTP server (`core/server`), its one entry for the composition root and the CLI: the app
 * factory, the studio's sessions, the UI folder, and the check of a request's schema.
 */

export { buildServer, type HttpApp } from './app';
export type { AuthThrottleOptions } from './auth-throttle';
export { trustProxyProblem, type EdgeOptions } from './http-edge';
export { publicBase, signInAddress } from './public-url';
export { createSessions } from './sessions';
export { DEFAULT_UI_DIR } from './static-ui';
export { firstSchemaProblem } from './validation';
