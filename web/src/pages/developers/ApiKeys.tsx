// API keys: create one with a name (the full key is shown once, here, with a copy button), list them masked
// with when they were created and last used, revoke one after a confirmation.
import { useState } from 'preact/hooks';
import { Notice } from '../../components/Alert';
import { Async } from '../../components/Async';
import { CopyField } from '../../components/CopyButton';
import { type Column, DataTable } from '../../components/DataTable';
import { useConfirm } from '../../components/Dialog';
import { FormErrors, SubmitButton, TextField } from '../../components/Field';
import { Section } from '../../components/Page';
import { Time } from '../../components/Time';
import { api, messageOf } from '../../lib/api';
import { useForm, useLoad } from '../../lib/hooks';
import type { Doc, ListDoc, Resource } from '../../lib/jsonapi';
import type { ApiKeyAttributes } from '../../lib/resources';

type ApiKey = Resource<ApiKeyAttributes>;

export function ApiKeys() {
  const keys = useLoad((signal) => api.get<ListDoc<ApiKeyAttributes>>('/v2/api_keys', { signal, query: { 'page[size]': 100 } }), []);
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, confirmElement] = useConfirm();

  const revoke = async (k: ApiKey) => {
    const ok = await confirm({
      title: `Revoke ${k.attributes.name || k.attributes.masked}?`,
      message: (
        <p>
          Every client using <code>{k.attributes.masked}</code> is refused from now on. This cannot be undone.
        </p>
      ),
      confirmLabel: 'Revoke key',
      danger: true,
    });
    if (!ok) return;
    setError(null);
    try {
      await api.delete(`/v2/api_keys/${encodeURIComponent(k.id)}`);
      if (created?.id === k.id) setCreated(null);
      keys.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const columns: Column<ApiKey>[] = [
    {
      key: 'name',
      header: 'Name',
      rowHeader: true,
      cell: (k) => k.attributes.name || <span class="muted">Unnamed</span>,
      sortValue: (k) => k.attributes.name,
    },
    { key: 'key', header: 'Key', cell: (k) => <code>{k.attributes.masked}</code> },
    { key: 'created', header: 'Created', cell: (k) => <Time value={k.attributes.created_at} />, sortValue: (k) => k.attributes.created_at },
    {
      key: 'used',
      header: 'Last used',
      cell: (k) => <Time value={k.attributes.last_used_at} empty="Never" />,
      sortValue: (k) => k.attributes.last_used_at,
    },
    {
      key: 'actions',
      header: <span class="visually-hidden">Actions</span>,
      cell: (k) => (
        <button type="button" class="button-danger button-small" onClick={() => revoke(k)}>
          Revoke<span class="visually-hidden"> {k.attributes.name || k.attributes.masked}</span>
        </button>
      ),
    },
  ];

  return (
    <Section id="api-keys" title="API keys">
      <p>
        Send a key as <code>Authorization: Token &lt;key&gt;</code> to <code>{window.location.origin}/v2</code>. Keys belong to the account,
        not to you.
      </p>
      {created?.attributes.key && (
        <Notice tone="warning">
          <p>
            <strong>Copy the new key {created.attributes.name ? `“${created.attributes.name}” ` : ''}now.</strong> Tidemark shows it only
            this once; it stores only a hash.
          </p>
          <CopyField value={created.attributes.key} what="API key" />
          <p>
            <button type="button" class="button-secondary button-small" onClick={() => setCreated(null)}>
              I have copied it
            </button>
          </p>
        </Notice>
      )}
      {error && <FormErrors errors={[error]} />}
      <CreateKeyForm
        onCreated={(k) => {
          setCreated(k);
          keys.reload();
        }}
      />
      <Async state={keys}>
        {(d) => (
          <DataTable
            caption="API keys"
            hideCaption
            columns={columns}
            rows={d.data}
            rowKey={(k) => k.id}
            empty="No API keys yet."
            initialSort={{ key: 'created', dir: 'desc' }}
          />
        )}
      </Async>
      {confirmElement}
    </Section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (k: ApiKey) => void }) {
  const [name, setName] = useState('');
  const form = useForm();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return form.fail([], { name: 'Name the key after the client that uses it.' });
    const doc = await form.run(
      () => api.post<Doc<ApiKeyAttributes>>('/v2/api_keys', { data: { type: 'api_key', attributes: { name: name.trim() } } }),
      ['name'],
    );
    if (doc) {
      setName('');
      onCreated(doc.data);
    }
  };
  return (
    <form class="form form-inline" onSubmit={submit} noValidate>
      <FormErrors errors={form.errors} />
      <TextField
        label="New key's name"
        name="key-name"
        autoComplete="off"
        placeholder="e.g. ERP integration"
        value={name}
        onValue={setName}
        error={form.fields.name}
      />
      <div class="form-actions">
        <SubmitButton busy={form.busy} busyLabel="Creating…">
          Create key
        </SubmitButton>
      </div>
    </form>
  );
}
