// A small history router: path patterns with `:params`, `navigate()`, `<Link>`, and a hook that re-renders on
// every location change (push, replace, back/forward).
import { isServerPath } from '../paths.js';
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string;
  search: URLSearchParams;
  /** path + search, e.g. for `?next=`. */
  href: string;
}

const listeners = new Set<() => void>();

function current(): Location {
  const { pathname, search } = window.location;
  return { path: pathname, search: new URLSearchParams(search), href: pathname + search };
}

function notify() {
  for (const l of [...listeners]) l();
}

window.addEventListener('popstate', notify);

/** Goes to a same-origin path (with its query) without reloading the page. */
export function navigate(to: string, opts: { replace?: boolean } = {}) {
  // The server resolves these (the deep link): a page load, not a route of the app.
  if (isServerPath(to)) {
    if (opts.replace) window.location.replace(to);
    else window.location.assign(to);
    return;
  }
  const before = window.location.pathname + window.location.search;
  if (to === before && !opts.replace) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  if (!to.includes('#')) window.scrollTo(0, 0);
  notify();
}

/** Changes the query string of the current page (filters, paging) without adding a history entry per keystroke. */
export function setQuery(params: Record<string, string | number | null | undefined>, opts: { replace?: boolean } = {}) {
  const search = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === '') search.delete(k);
    else search.set(k, String(v));
  }
  const s = search.toString();
  navigate(window.location.pathname + (s ? `?${s}` : ''), opts);
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const update = () => setLoc(current());
    listeners.add(update);
    update();
    return () => {
      listeners.delete(update);
    };
  }, []);
  return loc;
}

/** Where to go after signing in: only a same-origin path, never another site (`//evil`, `https://…`). */
export function safeNext(next: string | null | undefined, fallback = '/shipments'): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  return next;
}

export type Params = Record<string, string>;

interface Compiled {
  regex: RegExp;
  names: string[];
}
const compiled = new Map<string, Compiled>();

function compile(pattern: string): Compiled {
  let c = compiled.get(pattern);
  if (!c) {
    const names: string[] = [];
    const source = pattern
      .split('/')
      .map((seg) => {
        if (seg.startsWith(':')) {
          names.push(seg.slice(1));
          return '([^/]+)';
        }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    c = { regex: new RegExp(`^${source}/?$`), names };
    compiled.set(pattern, c);
  }
  return c;
}

/** The params of `path` when it matches `pattern` (`/shipments/:id`), else null. */
export function matchPath(pattern: string, path: string): Params | null {
  const { regex, names } = compile(pattern);
  const m = regex.exec(path);
  if (!m) return null;
  const params: Params = {};
  names.forEach((n, i) => {
    params[n] = decodeURIComponent(m[i + 1]!);
  });
  return params;
}

type AnchorProps = JSX.IntrinsicElements['a'] & { href: string; children?: ComponentChildren };

/**
 * An `<a>` that navigates inside the app on a plain click and behaves as a normal link otherwise (new tab,
 * copy link, modified clicks). Marks itself `aria-current="page"` when `current` is set and it matches.
 */
export function Link({ href, onClick, ...rest }: AnchorProps) {
  return (
    <a
      href={href}
      onClick={(e) => {
        if (typeof onClick === 'function') onClick(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        const target = (e.currentTarget as HTMLAnchorElement).target;
        if (target && target !== '_self') return;
        e.preventDefault();
        navigate(href);
      }}
      {...rest}
    />
  );
}
