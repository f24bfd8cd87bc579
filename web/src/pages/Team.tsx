// `/team` (owners): the account's users; invite by a one-time link, remove a member, issue a password reset link.
import { useState } from 'preact/hooks';
import { Notice } from '../components/Alert';
import { Async } from '../components/Async';
import { CopyField } from '../components/CopyButton';
import { type Column, DataTable } from '../components/DataTable';
import { useConfirm } from '../components/Dialog';
import { FormErrors, SelectField, SubmitButton, TextField } from '../components/Field';
import { Page, Section } from '../components/Page';
import { Time } from '../components/Time';
import { api, messageOf } from '../lib/api';
import { useForm, useLoad } from '../lib/hooks';
import type { Role, Session } from '../lib/session';
import type { PageProps } from '../routes';

interface Member {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  last_sign_in_at?: string | null;
}

interface IssuedLink {
  what: string;
  email: string;
  url: string;
}

export default function Team({ session }: PageProps) {
  const me = session as Session;
  const members = useLoad((signal) => api.get<{ data: Member[] }>('/auth/members', { signal }), []);
  const [link, setLink] = useState<IssuedLink | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirm, confirmElement] = useConfirm();

  const remove = async (m: Member) => {
    const ok = await confirm({
      title: `Remove ${m.email}?`,
      message: (
        <p>They are signed out at once and can no longer sign in to {me.account.name}. API keys stay (they belong to the account).</p>
      ),
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    setActionError(null);
    try {
      await api.delete(`/auth/members/${encodeURIComponent(m.id)}`);
      members.reload();
    } catch (err) {
      setActionError(messageOf(err));
    }
  };

  const reset = async (m: Member) => {
    setActionError(null);
    try {
      const { url } = await api.post<{ url: string }>(`/auth/members/${encodeURIComponent(m.id)}/reset`);
      setLink({ what: 'Password reset link', email: m.email, url });
    } catch (err) {
      setActionError(messageOf(err));
    }
  };

  const columns: Column<Member>[] = [
    {
      key: 'email',
      header: 'E-mail',
      rowHeader: true,
      cell: (m) => (m.id === me.user.id ? `${m.email} (you)` : m.email),
      sortValue: (m) => m.email,
    },
    { key: 'role', header: 'Role', cell: (m) => (m.role === 'owner' ? 'Owner' : 'Member'), sortValue: (m) => m.role },
    { key: 'created', header: 'Joined', cell: (m) => <Time value={m.created_at} />, sortValue: (m) => m.created_at },
    {
      key: 'last',
      header: 'Last signed in',
      cell: (m) => <Time value={m.last_sign_in_at ?? null} empty="Never" />,
      sortValue: (m) => m.last_sign_in_at ?? null,
    },
    {
      key: 'actions',
      header: <span class="visually-hidden">Actions</span>,
      cell: (m) =>
        m.id === me.user.id ? null : (
          <div class="row-actions">
            <button type="button" class="button-secondary button-small" onClick={() => reset(m)}>
              Reset link<span class="visually-hidden"> for {m.email}</span>
            </button>
            <button type="button" class="button-danger button-small" onClick={() => remove(m)}>
              Remove<span class="visually-hidden"> {m.email}</span>
            </button>
          </div>
        ),
    },
  ];

  return (
    <Page title="Team">
      <p class="lead">Everyone who can sign in to {me.account.name}. Owners manage the team; members see and track everything else.</p>
      {link && (
        <Notice tone="success">
          <p>
            {link.what} for <strong>{link.email}</strong>. It works once; send it to them privately.
          </p>
          <CopyField value={link.url} what={link.what.toLowerCase()} />
        </Notice>
      )}
      {actionError && <FormErrors errors={[actionError]} />}
      <Section id="members" title="Members">
        <Async state={members}>
          {(d) => (
            <DataTable
              caption="Members"
              hideCaption
              columns={columns}
              rows={d.data}
              rowKey={(m) => m.id}
              initialSort={{ key: 'email', dir: 'asc' }}
            />
          )}
        </Async>
      </Section>
      <Section id="invite" title="Invite someone">
        <InviteForm onInvited={(email, url) => setLink({ what: 'Invitation link', email, url })} />
      </Section>
      {confirmElement}
    </Page>
  );
}

function InviteForm({ onInvited }: { onInvited: (email: string, url: string) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const form = useForm();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!email.trim()) return form.fail([], { email: 'Enter the e-mail address to invite.' });
    const res = await form.run(() => api.post<{ url: string }>('/auth/invites', { email: email.trim(), role }), ['email', 'role']);
    if (res) {
      onInvited(email.trim(), res.url);
      setEmail('');
    }
  };
  return (
    <form class="form form-inline" onSubmit={submit} noValidate>
      <FormErrors errors={form.errors} />
      <TextField
        label="E-mail"
        type="email"
        name="invite-email"
        autoComplete="off"
        value={email}
        onValue={setEmail}
        error={form.fields.email}
      />
      <SelectField
        label="Role"
        value={role}
        onValue={(v) => setRole(v as Role)}
        error={form.fields.role}
        options={[
          { value: 'member', label: 'Member' },
          { value: 'owner', label: 'Owner' },
        ]}
      />
      <div class="form-actions">
        <SubmitButton busy={form.busy} busyLabel="Creating link…">
          Create invitation link
        </SubmitButton>
      </div>
    </form>
  );
}
