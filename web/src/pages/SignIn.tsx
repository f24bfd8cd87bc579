// `/signin?next=<path>`: e-mail and password; on success the session is set and the user goes to `next`
// (a same-origin path only) or the shipments. A sign-up whose e-mail address is not confirmed yet is told so,
// with a way to have the link sent again.
import { useState } from 'preact/hooks';
import { FormErrors, SubmitButton, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { ApiError, api } from '../lib/api';
import { useForm, useLoad } from '../lib/hooks';
import { Link, navigate, safeNext } from '../lib/router';
import { type Session, setSession } from '../lib/session';
import type { PageProps } from '../routes';
import { ResendVerification } from './Verify';

export interface AuthConfig {
  signup_enabled: boolean;
  /** Sign-ups confirm their e-mail address before they can sign in (the server sends e-mail). */
  email_verification: boolean;
  sandbox: boolean;
}

export default function SignIn({ location }: PageProps) {
  const next = safeNext(location.search.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  /** The address whose confirmation is still awaited, after a sign-in with the right password. */
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const form = useForm();
  const config = useLoad((signal) => api.get<AuthConfig>('/auth/config', { signal, on401: 'throw' }), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      form.fail([], {
        ...(email.trim() ? {} : { email: 'Enter your e-mail address.' }),
        ...(password ? {} : { password: 'Enter your password.' }),
      });
      return;
    }
    setUnconfirmed(null);
    const s = await form.run(async () => {
      try {
        return await api.post<Session>('/auth/signin', { email: email.trim(), password }, { on401: 'throw' });
      } catch (err) {
        if (err instanceof ApiError && err.problems.some((p) => p.code === 'email_unverified')) setUnconfirmed(email.trim());
        if (err instanceof ApiError && err.status === 401)
          throw new ApiError(401, [
            { message: 'The e-mail address or the password is not right.', field: null, parameter: null, code: null },
          ]);
        throw err;
      }
    }, ['email', 'password']);
    if (s) {
      setSession(s);
      navigate(next, { replace: true });
    }
  };

  return (
    <Page title="Sign in" narrow>
      <form class="form card" onSubmit={submit} noValidate>
        <FormErrors errors={form.errors} />
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          error={form.fields.email}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
          error={form.fields.password}
        />
        <div class="form-actions">
          <SubmitButton busy={form.busy} busyLabel="Signing in…">
            Sign in
          </SubmitButton>
        </div>
        <p class="muted">Forgot your password? Ask an owner of your account for a reset link.</p>
      </form>
      {unconfirmed && <ResendVerification email={unconfirmed} />}
      {config.data?.signup_enabled && (
        <p class="below-card">
          New to Tidemark?{' '}
          <Link href={next !== '/shipments' ? `/signup?next=${encodeURIComponent(next)}` : '/signup'}>Create an account</Link>
        </p>
      )}
    </Page>
  );
}
