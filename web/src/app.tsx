// The shell: loads the session once, matches the path against the router table, applies each page's access
// rule, and frames the page with the top bar (brand, navigation, account, sign out) and the main landmark.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Loading, LoadError } from './components/Alert';
import { Page } from './components/Page';
import { ApiError, api } from './lib/api';
import { Link, matchPath, navigate, safeNext, useLocation } from './lib/router';
import { type Session, setSession, useSession } from './lib/session';
import { NAV, ROUTES } from './routes';

export function App() {
  const session = useSession();
  const location = useLocation();
  const [bootError, setBootError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  // Loaded again when `attempt` changes (the retry button).
  useEffect(() => {
    const controller = new AbortController();
    setBootError(null);
    api.get<Session>('/auth/session', { on401: 'throw', signal: controller.signal }).then(
      (s) => setSession(s),
      (err) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 401) setSession(null);
        else setBootError(err);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  useRouteFocus(location.path);

  let content: ComponentChildren;
  if (bootError && session === undefined) {
    content = (
      <Page title="Tidemark is unavailable">
        <LoadError error={bootError} retry={() => setAttempt((a) => a + 1)} />
      </Page>
    );
  } else if (session === undefined) {
    content = <Loading />;
  } else {
    content = <Routed session={session} />;
  }

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar session={session ?? null} path={location.path} />
      <main id="main" tabIndex={-1}>
        {content}
      </main>
    </>
  );
}

function Routed({ session }: { session: Session | null }) {
  const location = useLocation();
  for (const route of ROUTES) {
    const params = matchPath(route.path, location.path);
    if (!params) continue;
    if ((route.access === 'user' || route.access === 'owner') && !session) {
      return <Redirect to={`/signin?next=${encodeURIComponent(location.href)}`} />;
    }
    if (route.access === 'guest' && session) return <Redirect to={safeNext(location.search.get('next'))} />;
    if (route.access === 'owner' && session?.user.role !== 'owner') {
      return (
        <Page title="Owners only">
          <p>Only the owners of {session?.account.name} can manage the team. Ask an owner if you need a change.</p>
        </Page>
      );
    }
    const Component = route.page;
    // Keyed by path: a new id mounts a fresh page (no state carried over from the previous resource).
    return <Component key={location.path} params={params} location={location} session={session} />;
  }
  return (
    <Page title="Page not found">
      <p>There is no page at {location.path}.</p>
      <p>
        <Link href={session ? '/shipments' : '/signin'}>{session ? 'Go to your shipments' : 'Sign in'}</Link>
      </p>
    </Page>
  );
}

/** Replaces the current history entry (so Back does not bounce). */
export function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return <Loading label="Redirecting…" />;
}

/** After in-app navigation (not the first load), moves focus to the new page's heading. */
function useRouteFocus(path: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const id = window.requestAnimationFrame(() => {
      const target = document.getElementById('page-title') ?? document.getElementById('main');
      target?.focus({ preventScroll: true });
    });
    return () => window.cancelAnimationFrame(id);
  }, [path]);
}

function TopBar({ session, path }: { session: Session | null; path: string }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // The menu (narrow screens) closes when the page changes, and on Escape with focus back on its button.
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const signOut = async () => {
    try {
      await api.post('/auth/signout', undefined, { on401: 'throw' });
    } catch {
      // Signed out already (or the server is gone): forget the session either way.
    }
    setSession(null);
    navigate('/signin');
  };

  const items = NAV.filter((n) => !n.owner || session?.user.role === 'owner');
  const isCurrent = (n: (typeof NAV)[number]) => path === n.href || (n.also ?? []).some((p) => path.startsWith(p));

  return (
    <header class="topbar">
      <div class="topbar-inner">
        <Link href="/" class="brand">
          <span class="brand-mark" aria-hidden="true" />
          Tidemark
        </Link>
        {session && (
          <>
            <button
              ref={toggle}
              type="button"
              class="menu-toggle"
              aria-expanded={open}
              aria-controls="topbar-menu"
              onClick={() => setOpen(!open)}
            >
              Menu
            </button>
            <div id="topbar-menu" class={open ? 'topbar-menu open' : 'topbar-menu'}>
              <nav aria-label="Main">
                <ul class="nav-list">
                  {items.map((n) => (
                    <li key={n.href}>
                      <Link href={n.href} class="nav-link" aria-current={isCurrent(n) ? 'page' : undefined}>
                        {n.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </nav>
              <div class="account">
                {session.sandbox && <span class="badge badge-info">Sandbox</span>}
                {/* The plan, beside the account: its API access is on the Developers page (GET /v2/account). */}
                <span class="badge badge-neutral" title="Plan">
                  {session.account.plan === 'free' ? 'Free plan' : 'Unlimited'}
                </span>
                <span class="account-name" title={session.user.email}>
                  {session.account.name}
                  <span class="visually-hidden">, signed in as {session.user.email}</span>
                </span>
                <button type="button" class="button-quiet" onClick={signOut}>
                  Sign out
                </button>
              </div>
            </div>
          </>
        )}
      </div>
    </header>
  );
}
