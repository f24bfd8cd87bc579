// `/setup/<token>`: the one-time links — the owner's first setup, an invitation, a password reset. Says which
// it is, asks for the password (and the e-mail when the link has none), then signs in.
import { useState } from 'preact/hooks';
import { Notice } from '../components/Alert';
import { Async } from '../components/Async';
import { FormErrors, SubmitButton, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { ApiError, api } from '../lib/api';
import { useForm, useLoad } from '../lib/hooks';
import { Link, navigate } from '../lib/router';
import { type Session, setSession } from '../lib/session';
import type { PageProps } from '../routes';

interface LinkInfo {
  kind: 'owner_setup' | 'invite' | 'password_reset';
  email: string | null;
  account_name: string;
}

const TEXT: Record<LinkInfo['kind'], { title: (a: string) => string; intro: string; button: string }> = {
  owner_setup: {
    title: (a) => `Set up the owner of ${a}`,
    intro: 'This link sets up the first user of this Tidemark installation. Choose the password you will sign in with.',
    button: 'Set password and sign in',
  },
  invite: {
    title: (a) => `Join ${a}`,
    intro: 'You have been invited to this account. Choose a password to create your user.',
    button: 'Join and sign in',
  },
  password_reset: {
    title: () => 'Choose a new password',
    intro: 'This link replaces your password. Your other sessions stay signed in until they expire.',
    button: 'Save password and sign in',
  },
};

export default function Setup({ params, session }: PageProps) {
  const token = params.token!;
  const info = useLoad((signal) => api.get<LinkInfo>(`/auth/tokens/${encodeURIComponent(token)}`, { signal, on401: 'throw' }), [token]);

  if (info.error instanceof ApiError && info.error.status === 404) {
    return (
      <Page title="This link does not work" narrow>
        <div class="card">
          <p>The link has been used already, has expired, or was copied incompletely. Ask an owner of your account for a new one.</p>
          <p>
            <Link href="/signin">Sign in</Link>
          </p>
        </div>
      </Page>
    );
  }
  const title = info.data ? TEXT[info.data.kind].title(info.data.account_name) : 'One-time link';
  return (
    <Page title={title} narrow>
      <Async state={info}>{(i) => <SetupForm token={token} info={i} session={session} />}</Async>
    </Page>
  );
}

function SetupForm({ token, info, session }: { token: string; info: LinkInfo; session: Session | null }) {
  const text = TEXT[info.kind];
  const [email, setEmail] = useState(info.email ?? '');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const form = useForm();

  const submit = async (e: Event) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (info.email === null && !email.trim()) problems.email = 'Enter your e-mail address.';
    if (!password) problems.password = 'Choose a password.';
    else if (password !== repeat) problems.repeat = 'The two passwords are not the same.';
    if (Object.keys(problems).length) return form.fail([], problems);
    const s = await form.run(
      () =>
        api.post<Session>(
          `/auth/tokens/${encodeURIComponent(token)}`,
          info.email === null ? { email: email.trim(), password } : { password },
          { on401: 'throw' },
        ),
      ['email', 'password'],
    );
    if (s) {
      setSession(s);
      navigate('/shipments', { replace: true });
    }
  };

  return (
    <form class="form card" onSubmit={submit} noValidate>
      <p>{text.intro}</p>
      {session && session.user.email !== info.email && (
        <Notice tone="warning">You are signed in as {session.user.email}; continuing signs you in as the user of this link instead.</Notice>
      )}
      <FormErrors errors={form.errors} />
      {info.email === null ? (
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
      ) : (
        <div class="field">
          <span class="field-label">E-mail</span>
          <p class="static-value">{info.email}</p>
        </div>
      )}
      <TextField
        label={info.kind === 'password_reset' ? 'New password' : 'Password'}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={password}
        onValue={setPassword}
        error={form.fields.password}
      />
      <TextField
        label="Repeat the password"
        type="password"
        name="repeat"
        autoComplete="new-password"
        required
        value={repeat}
        onValue={setRepeat}
        error={form.fields.repeat}
      />
      {info.email !== null && <input type="hidden" name="username" autoComplete="username" value={info.email} />}
      <div class="form-actions">
        <SubmitButton busy={form.busy} busyLabel="Saving…">
          {text.button}
        </SubmitButton>
      </div>
    </form>
  );
}
