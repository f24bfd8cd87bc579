// Every path the web app answers: one list with the server's, in src/domain/web-paths.ts.
export { APP_PATHS, type AppPath } from '../../src/domain/web-paths.js';

/** Paths the server answers itself (the deep link resolves and redirects): the app loads them, never routes them. */
export const SERVER_PATHS = ['/shipments/find'] as const;

export function isServerPath(path: string): boolean {
  const pathname = path.split(/[?#]/, 1)[0];
  return (SERVER_PATHS as readonly string[]).includes(pathname ?? '');
}
