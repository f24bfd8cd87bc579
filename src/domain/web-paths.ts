// Every path the web app's router answers (web/src/routes.ts); the server serves the app's HTML shell at exactly these
// (http/routes/web/shell.ts). One list for both. `/shipments/find` is not one: the server resolves it and redirects.
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
