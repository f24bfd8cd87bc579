// `/signup`: a new account (company name) with its first user as owner. Hidden when the server says sign-up
// is off (TIDEMARK_SIGNUP=off): then the page says how to get in instead. When the server sends e-mail, the new
// account is not signed in: the page says to open the confirmation link sent to the address.
import { useState } from 'preact/hooks';
import { Async } from '../components/Async';
import { FormErrors, SubmitButton, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { api } from '../lib/api';
import { useForm, useLoad } from '../lib/hooks';
import { Link, navigate, safeNext } from '../lib/router';
import { type Session, setSession } from '../lib/session';
import type { PageProps } from '../routes';
import type { AuthConfig } from './SignIn';
import { ResendVerification } from './Verify';

/** What sign-up answers when the address must be confirmed first. */
interface VerificationPending {
  verification_required: true;
  email: string;
  emailed: boolean;
}

export default function SignUp({ location }: PageProps) {
  const config = useLoad((signal) => api.get<AuthConfig>('/auth/config', { signal, on401: 'throw' }), []);
  const next = safeNext(location.search.get('next'));
  return (
    <Page title="Create an account" narrow>
      <Async state={config}>
        {(c) =>
          c.signup_enabled ? (
            <SignUpForm next={next} />
          ) : (
            <div class="card">
              <p>Sign-up is turned off on this Tidemark. Ask an owner of your company's account for an invitation link.</p>
              <p>
                <Link href="/signin">Sign in</Link>
              </p>
            </div>
          )
        }
      </Async>
    </Page>
  );
}

function SignUpForm({ next }: { next: string }) {
  const [company, setCompany] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<VerificationPending | null>(null);
  const form = useForm();

  const submit = async (e: Event) => {
    e.preventDefault();
    const missing: Record<string, string> = {};
    if (!company.trim()) missing.company_name = 'Enter your company name.';
    if (!email.trim()) missing.email = 'Enter your e-mail address.';
    if (!password) missing.password = 'Choose a password.';
    if (Object.keys(missing).length) return form.fail([], missing);
    const s = await form.run(
      () =>
        api.post<Session | VerificationPending>(
          '/auth/signup',
          { company_name: company.trim(), email: email.trim(), password },
          { on401: 'throw' },
        ),
      ['company_name', 'email', 'password'],
    );
    if (s && 'verification_required' in s) setPending(s);
    else if (s) {
      setSession(s);
      navigate(next, { replace: true });
    }
  };

  if (pending) {
    return (
      <>
        <div class="card">
          <h2>Check your inbox</h2>
          {pending.emailed ? (
            <p>
              We sent a confirmation link to <strong>{pending.email}</strong>. Open it within 24 hours to confirm the address, then sign in.
              Nothing there? Look in your spam folder, or ask for a new link below.
            </p>
          ) : (
            <p>
              Your account is created, but the confirmation e-mail to <strong>{pending.email}</strong> could not be sent just now. Ask for a
              new link below in a moment; you can sign in once the address is confirmed.
            </p>
          )}
          <p>
            <Link href="/signin">Sign in</Link>
          </p>
        </div>
        <ResendVerification email={pending.email} />
      </>
    );
  }

  return (
    <>
      <form class="form card" onSubmit={submit} noValidate>
        <FormErrors errors={form.errors} />
        <TextField
          label="Company name"
          name="company_name"
          autoComplete="organization"
          required
          value={company}
          onValue={setCompany}
          error={form.fields.company_name}
        />
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
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onValue={setPassword}
          error={form.fields.password}
          hint="Use a long password you do not use anywhere else."
        />
        <div class="form-actions">
          <SubmitButton busy={form.busy} busyLabel="Creating…">
            Create account
          </SubmitButton>
        </div>
      </form>
      <p class="below-card">
        Already have an account? <Link href="/signin">Sign in</Link>
      </p>
    </>
  );
}
