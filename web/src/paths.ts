// Every path the web app answers. The server (src/http/routes/web/web.ts) serves the shell at exactly these
// paths, and its test checks that both lists agree: add a page here, in routes.ts, and on the server.
export const APP_PATHS = [
  '/',
  '/signin',
  '/signup',
  '/setup/:token',
  '/verify/:token',
  '/shipments',
  '/shipments/:id',
  '/containers/:id',
  '/board',
  '/developers',
  '/team',
  '/oauth/interaction/:uid',
] as const;

export type AppPath = (typeof APP_PATHS)[number];

/** Paths the server answers itself (the deep link resolves and redirects): the app loads them, never routes them. */
export const SERVER_PATHS = ['/shipments/find'] as const;

export function isServerPath(path: string): boolean {
  const pathname = path.split(/[?#]/, 1)[0];
  return (SERVER_PATHS as readonly string[]).includes(pathname ?? '');
}
