// Every path the web app answers. The server (src/http/routes/web/web.ts) serves the shell at exactly these
// paths, and its test checks that both lists agree: add a page here, in routes.ts, and on the server.
export const APP_PATHS = [
  '/',
  '/signin',
  '/signup',
  '/setup/:token',
  '/shipments',
  '/shipments/:id',
  '/containers/:id',
  '/board',
  '/developers',
  '/team',
] as const;

export type AppPath = (typeof APP_PATHS)[number];
