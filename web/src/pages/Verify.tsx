// `/verify/<token>`: the e-mail confirmation link of a sign-up (only when the server sends e-mail). Confirming takes
// a click, so that a mail scanner opening the link does not confirm an address for someone else; then the person
// signs in. Also the form that asks for a new link, shown here and on the sign-in and sign-up pages.
import { useState } from 'preact/hooks';
import { Notice } from '../components/Alert';
import { FormErrors, SubmitButton, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { ApiError, api } from '../lib/api';
import { useForm } from '../lib/hooks';
import { Link } from '../lib/router';
import type { PageProps } from '../routes';

export default function Verify({ params }: PageProps) {
  const token = params.token!;
  const form = useForm();
  const [state, setState] = useState<{ kind: 'ready' } | { kind: 'done'; email: string } | { kind: 'dead' }>({ kind: 'ready' });

  const confirm = async (e: Event) => {
    e.preventDefault();
    let dead = false;
    const res = await form.run(async () => {
      try {
        return await api.post<{ verified: true; email: string }>(`/auth/verification/${encodeURIComponent(token)}`, {}, { on401: 'throw' });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) dead = true;
        throw err;
      }
    });
    if (res) setState({ kind: 'done', email: res.email });
    else if (dead) setState({ kind: 'dead' });
  };

  if (state.kind === 'done') {
    return (
      <Page title="E-mail address confirmed" narrow>
        <div class="card">
          <Notice tone="success">
            <p>{state.email} is confirmed. You can sign in now.</p>
          </Notice>
          <p>
            <Link href="/signin">Sign in</Link>
          </p>
        </div>
      </Page>
    );
  }
  if (state.kind === 'dead') {
    return (
      <Page title="This link does not work" narrow>
        <div class="card">
          <p>
            The confirmation link has been used already, has expired (links work for 24 hours), or was copied incompletely. If your address
            is not confirmed yet, ask for a new link below; if it is, just sign in.
          </p>
          <p>
            <Link href="/signin">Sign in</Link>
          </p>
        </div>
        <ResendVerification />
      </Page>
    );
  }
  return (
    <Page title="Confirm your e-mail address" narrow>
      <form class="form card" onSubmit={confirm} noValidate>
        <FormErrors errors={form.errors} />
        <p>Confirm that this e-mail address is yours to finish creating your Tidemark account.</p>
        <div class="form-actions">
          <SubmitButton busy={form.busy} busyLabel="Confirming…">
            Confirm my e-mail address
          </SubmitButton>
        </div>
      </form>
    </Page>
  );
}

/** Asks for a new confirmation link; the answer is the same whether or not the address has an account waiting. */
export function ResendVerification({ email: initial = '' }: { email?: string }) {
  const [email, setEmail] = useState(initial);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm();

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!email.trim()) return form.fail([], { email: 'Enter your e-mail address.' });
    const res = await form.run(
      () => api.post<{ sent: true }>('/auth/verification', { email: email.trim() }, { on401: 'throw' }),
      ['email'],
    );
    if (res) setSentTo(email.trim());
  };

  return (
    <section class="subsection" aria-labelledby="resend-title">
      <form class="form card" onSubmit={submit} noValidate>
        <h2 id="resend-title">Send the confirmation link again</h2>
        <FormErrors errors={form.errors} />
        {sentTo && (
          <Notice tone="success">
            <p>
              If {sentTo} has an account waiting for confirmation, a new link is on its way (it works for 24 hours; earlier links stop
              working). Look in your spam folder too.
            </p>
          </Notice>
        )}
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onValue={setEmail}
          error={form.fields.email}
        />
        <div class="form-actions">
          <SubmitButton busy={form.busy} busyLabel="Sending…">
            Send a new link
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
