// The router table: one entry per page, each page in its own file under pages/. `access` says who may see
// it: `public` anyone, `guest` only signed-out users (signed-in users go on to `?next=` or /shipments),
// `user` any signed-in user (others go to /signin?next=…), `owner` signed-in owners (members see a notice).
// Adding a page: add its path to paths.ts (and the server's list in src/http/routes/web/web.ts), then here.
import type { ComponentType } from 'preact';
import type { Location, Params } from './lib/router';
import type { Session } from './lib/session';
import Board from './pages/Board';
import Container from './pages/Container';
import Developers from './pages/Developers';
import Home from './pages/Home';
import OAuthConsent from './pages/OAuthConsent';
import Setup from './pages/Setup';
import Shipment from './pages/Shipment';
import Shipments from './pages/Shipments';
import SignIn from './pages/SignIn';
import SignUp from './pages/SignUp';
import Team from './pages/Team';
import Verify from './pages/Verify';
import type { AppPath } from './paths';

export type Access = 'public' | 'guest' | 'user' | 'owner';

export interface PageProps {
  params: Params;
  location: Location;
  /** The signed-in user; never null on `user` and `owner` pages. */
  session: Session | null;
}

export interface RouteDef {
  path: AppPath;
  access: Access;
  page: ComponentType<PageProps>;
}

export const ROUTES: RouteDef[] = [
  { path: '/', access: 'public', page: Home },
  { path: '/signin', access: 'guest', page: SignIn },
  { path: '/signup', access: 'guest', page: SignUp },
  { path: '/setup/:token', access: 'public', page: Setup },
  // A sign-up's e-mail confirmation link (only when the server sends e-mail).
  { path: '/verify/:token', access: 'public', page: Verify },
  { path: '/shipments', access: 'user', page: Shipments },
  { path: '/shipments/:id', access: 'user', page: Shipment },
  { path: '/containers/:id', access: 'user', page: Container },
  { path: '/board', access: 'user', page: Board },
  { path: '/developers', access: 'user', page: Developers },
  { path: '/team', access: 'owner', page: Team },
  // The sign-in and consent step of MCP clients' OAuth flow (the authorization server sends the browser here).
  { path: '/oauth/interaction/:uid', access: 'user', page: OAuthConsent },
];

/** The main navigation (in this order); `owner` items only for owners. */
export const NAV: { href: string; label: string; owner?: boolean /** Other paths that mark it current. */; also?: string[] }[] = [
  { href: '/shipments', label: 'Shipments', also: ['/shipments/', '/containers/'] },
  { href: '/board', label: 'Board' },
  { href: '/developers', label: 'Developers' },
  { href: '/team', label: 'Team', owner: true },
];
