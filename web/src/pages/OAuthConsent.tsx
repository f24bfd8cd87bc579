// `/oauth/interaction/<uid>`: the browser step of an MCP client's OAuth sign-in (docs/mcp.md). The authorization
// server sends the browser here; the page says which application asks to use which account, what it could do
// with it, and where either answer leads, and the user allows or denies. Signed-out users sign in first (`user`
// access brings them back here). Both answers end in a full page load of the `redirect_to` the server gives
// (through the authorization server to the client's redirect URI, often on another origin), never an in-app
// route.
//
// The client registered its name and website itself, so the page says they are unchecked and shows the host the
// answer returns to. Its `logo_uri` is never shown: the CSP allows images from this origin only, and a logo
// would make an unverified client look official. A website that is not http(s) is shown as text, not a link.
// Nothing is focused or pre-selected: allowing takes a deliberate click.
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Notice } from '../components/Alert';
import { Async } from '../components/Async';
import { type Fact, Facts } from '../components/Facts';
import { FormErrors, SubmitButton } from '../components/Field';
import { Page, Section } from '../components/Page';
import { ApiError, api, messageOf } from '../lib/api';
import { useForm, useLoad } from '../lib/hooks';
import { Link } from '../lib/router';
import { type Session, setSession } from '../lib/session';
import type { PageProps } from '../routes';

/** The body of `GET /oauth/interaction/{uid}/details`. */
export interface InteractionDetails {
  uid: string;
  prompt: 'login' | 'consent';
  client: {
    client_id: string;
    client_name: string | null;
    client_uri: string | null;
    logo_uri: string | null;
    redirect_host: string;
  };
  resource: string;
  scopes: string[];
  /** The signed-in user's account; null when the server sees no session. */
  account: { id: string; name: string } | null;
}

const TITLE = 'Connect an MCP client';

/** The interaction is unknown, expired or used: nothing to answer any more (the server says so in words). */
const isGone = (err: unknown) => err instanceof ApiError && (err.status === 400 || err.status === 404);

/** An http(s) address, else null (a client could register `javascript:` or another scheme). */
function webAddress(uri: string | null): string | null {
  if (!uri) return null;
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

export default function OAuthConsent({ params, session }: PageProps) {
  const base = `/oauth/interaction/${encodeURIComponent(params.uid!)}`;
  const details = useLoad((signal) => api.get<InteractionDetails>(`${base}/details`, { signal, on401: 'throw' }), [base]);

  // Back from the client (the page restored from the browser's cache): the request is likely used up; ask again.
  const { reload } = details;
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) reload();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [reload]);

  if (isGone(details.error)) {
    return (
      <Page title={TITLE} narrow>
        <Gone message={messageOf(details.error)} />
      </Page>
    );
  }
  return (
    <Page title={TITLE} narrow>
      <Async state={details} label="Loading the sign-in request…">
        {(d) => <Consent key={d.uid} base={base} details={d} session={session as Session} />}
      </Async>
    </Page>
  );
}

function Gone({ message }: { message: string }) {
  return (
    <div data-testid="oauth-gone">
      <ErrorMessage messages={[message]} />
      <p>
        <Link href="/shipments">Go to your shipments</Link>
      </p>
    </div>
  );
}

function Consent({ base, details, session }: { base: string; details: InteractionDetails; session: Session }) {
  const { client } = details;
  const name = client.client_name?.trim() || client.client_id;
  const account = details.account?.name ?? session.account.name;
  const website = webAddress(client.client_uri);
  const form = useForm();
  const [choice, setChoice] = useState<'allow' | 'deny' | null>(null);
  const [gone, setGone] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  // Back from the client with the request still open: the buttons work again.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const answer = async (which: 'allow' | 'deny') => {
    setChoice(which);
    const result = await form.run(async () => {
      try {
        return await api.post<{ redirect_to?: unknown }>(`${base}/${which === 'allow' ? 'confirm' : 'abort'}`, {});
      } catch (err) {
        if (!isGone(err)) throw err;
        setGone(messageOf(err));
        return null;
      }
    });
    if (result === undefined || result === null) return;
    if (typeof result.redirect_to !== 'string' || !result.redirect_to) {
      form.fail(['The server did not say where to go next. Start again from your MCP client.']);
      return;
    }
    setLeaving(true);
    window.location.assign(result.redirect_to);
  };

  const switchAccount = async () => {
    try {
      await api.post('/auth/signout', undefined, { on401: 'throw' });
    } catch {
      // Signed out already (or the server is gone): forget the session either way.
    }
    // Signed out, this `user` page sends the browser to sign in and back here.
    setSession(null);
  };

  if (gone) return <Gone message={gone} />;

  const facts: Fact[] = [
    ['Application', <strong>{name}</strong>],
    ...(client.client_uri
      ? [
          [
            'Website',
            website ? (
              <a href={website} target="_blank" rel="noopener noreferrer nofollow">
                {website}
                <span class="visually-hidden"> (opens in a new tab)</span>
              </a>
            ) : (
              client.client_uri
            ),
          ] as Fact,
        ]
      : []),
    ['Returns you to', <strong>{client.redirect_host}</strong>],
    ['Tidemark account', account],
    ['Signed in as', session.user.email],
  ];
  const technical: Fact[] = [
    ['Client ID', <code>{client.client_id}</code>],
    ['Server', <code>{details.resource}</code>],
    ['Scopes', details.scopes.length ? <code>{details.scopes.join(' ')}</code> : null],
  ];
  const busy = form.busy || leaving;

  return (
    <>
      <form
        class="form card consent"
        data-testid="oauth-consent"
        aria-labelledby="consent-request"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) void answer('allow');
        }}
        noValidate
      >
        <p id="consent-request" class="consent-request">
          <strong>{name}</strong> asks to use the Tidemark account <strong>{account}</strong> through MCP (the Model Context Protocol).
        </p>
        <Facts items={facts} />
        <Section id="consent-can" title="It will be able to">
          <ul>
            <li>See the account's shipments, containers, tracking requests and their events (milestones, ETAs, last free days)</li>
            <li>Start tracking new containers, bills of lading and booking numbers</li>
          </ul>
        </Section>
        <Section id="consent-cannot" title="It will not be able to">
          <ul>
            <li>Change the account's settings or team, API keys or webhooks</li>
            <li>Delete anything</li>
          </ul>
        </Section>
        <details>
          <summary>Technical details</summary>
          <Facts items={technical} />
        </details>
        <p class="muted small">
          The name and website come from the application itself; Tidemark has not checked them. Allow only if you started this connection
          from your MCP client just now. Either answer will return you to <strong>{client.redirect_host}</strong>.
        </p>
        <FormErrors errors={form.errors} />
        {leaving && (
          <Notice>Returning you to {client.redirect_host}… If nothing happens, close this page and go back to your MCP client.</Notice>
        )}
        <div class="form-actions">
          <SubmitButton busy={form.busy && choice === 'allow'} busyLabel="Allowing…" disabled={busy}>
            Allow
          </SubmitButton>
          <button
            type="button"
            class="button-secondary"
            disabled={busy}
            aria-busy={form.busy && choice === 'deny' ? true : undefined}
            onClick={() => void answer('deny')}
          >
            {form.busy && choice === 'deny' ? 'Denying…' : 'Deny'}
          </button>
        </div>
      </form>
      <p class="below-card">
        Not {session.user.email}?{' '}
        <button type="button" class="button-quiet" onClick={switchAccount} disabled={busy}>
          Use another account
        </button>
      </p>
    </>
  );
}
