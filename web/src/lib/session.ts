// Who is signed in: the body of GET /auth/session (also answered by sign-in, sign-up and one-time links),
// kept in one store that components subscribe to.
import { useEffect, useState } from 'preact/hooks';

export type Role = 'owner' | 'member';

export interface Session {
  user: { id: string; email: string; role: Role };
  account: { id: string; name: string; plan: string; features: string[] };
  csrf_token: string;
  sandbox: boolean;
}

/** `undefined` while the first GET /auth/session is in flight; `null` when nobody is signed in. */
export type SessionState = Session | null | undefined;

let state: SessionState;
const listeners = new Set<(s: SessionState) => void>();

export function getSession(): Session | null {
  return state ?? null;
}

export function setSession(s: Session | null) {
  state = s;
  for (const l of [...listeners]) l(s);
}

export function clearSession() {
  if (state !== null) setSession(null);
}

export function useSession(): SessionState {
  const [s, set] = useState<SessionState>(state);
  useEffect(() => {
    listeners.add(set);
    set(state);
    return () => {
      listeners.delete(set);
    };
  }, []);
  return s;
}

export const hasFeature = (s: Session | null | undefined, feature: string) => !!s?.account.features.includes(feature);
