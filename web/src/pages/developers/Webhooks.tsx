// Webhooks: the list, a form to create one (URL, events from the catalogue, custom headers), and for the
// selected one its details (secret behind a reveal, on/off, delete) and its recent notifications.
import { useState } from 'preact/hooks';
import { Notice } from '../../components/Alert';
import { Async } from '../../components/Async';
import { CopyButton } from '../../components/CopyButton';
import { type Column, DataTable } from '../../components/DataTable';
import { useConfirm } from '../../components/Dialog';
import { Badge } from '../../components/Facts';
import { Checkbox, FieldSet, FormErrors, SubmitButton, TextField } from '../../components/Field';
import { Section } from '../../components/Page';
import { plural } from '../../components/Pager';
import { Time } from '../../components/Time';
import { api, messageOf } from '../../lib/api';
import { type Loaded, useForm, useLoad } from '../../lib/hooks';
import type { Doc, ListDoc, Resource } from '../../lib/jsonapi';
import type { WebhookAttributes } from '../../lib/resources';
import { TriggerForm } from './Trigger';
import { WebhookNotifications } from './WebhookNotifications';

export type Webhook = Resource<WebhookAttributes>;

export interface EventCategory {
  id: string;
  name: string;
  events: { name: string; description: string }[];
}

export function Webhooks() {
  const hooks = useLoad((signal) => api.get<ListDoc<WebhookAttributes>>('/v2/webhooks', { signal, query: { 'page[size]': 100 } }), []);
  const catalogue = useLoad(
    (signal) =>
      api
        .get<ListDoc<{ name: string; events: { name: string; description: string }[] }>>('/v2/webhooks/events', { signal })
        .then((d) => d.data.map((c) => ({ id: c.id, name: c.attributes.name, events: c.attributes.events }))),
    [],
  );
  const [selected, setSelected] = useState<string | null>(null);
  const [justCreated, setJustCreated] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const columns: Column<Webhook>[] = [
    {
      key: 'url',
      header: 'URL',
      rowHeader: true,
      cell: (w) => <span class="break">{w.attributes.url}</span>,
      sortValue: (w) => w.attributes.url,
    },
    {
      key: 'events',
      header: 'Events',
      cell: (w) => plural(w.attributes.events.length, 'event'),
      sortValue: (w) => w.attributes.events.length,
      align: 'end',
    },
    {
      key: 'status',
      header: 'Status',
      cell: (w) => (w.attributes.active ? <Badge tone="good">Active</Badge> : <Badge tone="bad">Off</Badge>),
      sortValue: (w) => w.attributes.active,
    },
    {
      key: 'created',
      header: 'Created',
      cell: (w) => <Time value={w.attributes.created_at} mode="relative" />,
      sortValue: (w) => w.attributes.created_at,
    },
    {
      key: 'actions',
      header: <span class="visually-hidden">Actions</span>,
      cell: (w) => (
        <button
          type="button"
          class="button-secondary button-small"
          aria-expanded={selected === w.id}
          aria-controls="webhook-details"
          onClick={() => setSelected(selected === w.id ? null : w.id)}
        >
          {selected === w.id ? 'Hide' : 'Details'}
          <span class="visually-hidden"> of {w.attributes.url}</span>
        </button>
      ),
    },
  ];

  const current = hooks.data?.data.find((w) => w.id === selected) ?? null;

  return (
    <>
      <Section
        id="webhooks"
        title="Webhooks"
        actions={
          !creating && (
            <button type="button" class="button-primary" onClick={() => setCreating(true)}>
              New webhook
            </button>
          )
        }
      >
        <p>Tidemark POSTs a signed JSON:API document to each webhook's URL whenever one of its events happens.</p>
        {creating && (
          <CreateWebhookForm
            catalogue={catalogue}
            onCancel={() => setCreating(false)}
            onCreated={(w) => {
              setCreating(false);
              setSelected(w.id);
              setJustCreated(w.id);
              hooks.reload();
            }}
          />
        )}
        <Async state={hooks}>
          {(d) => (
            <DataTable
              caption="Webhooks"
              hideCaption
              columns={columns}
              rows={d.data}
              rowKey={(w) => w.id}
              empty="No webhooks yet."
              rowClass={(w) => (w.id === selected ? 'row-selected' : undefined)}
            />
          )}
        </Async>
        <div id="webhook-details">
          {current && (
            <WebhookDetails
              key={current.id}
              webhook={current}
              isNew={justCreated === current.id}
              onChanged={hooks.reload}
              onDeleted={() => {
                setSelected(null);
                hooks.reload();
              }}
            />
          )}
        </div>
      </Section>
      <Section id="trigger" title="Send a test">
        <TriggerForm catalogue={catalogue} webhook={current} />
      </Section>
    </>
  );
}

function WebhookDetails({
  webhook,
  isNew,
  onChanged,
  onDeleted,
}: {
  webhook: Webhook;
  isNew: boolean;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const a = webhook.attributes;
  const [reveal, setReveal] = useState(isNew);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, confirmElement] = useConfirm();

  const act = async (fn: () => Promise<unknown>, after: () => void) => {
    setError(null);
    setBusy(true);
    try {
      await fn();
      after();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const toggleActive = () =>
    act(
      () => api.patch(`/v2/webhooks/${webhook.id}`, { data: { type: 'webhook', id: webhook.id, attributes: { active: !a.active } } }),
      onChanged,
    );

  const remove = async () => {
    const ok = await confirm({
      title: 'Delete this webhook?',
      message: (
        <p>
          Deliveries to <span class="break">{a.url}</span> stop, and its notifications and their delivery logs are deleted.
        </p>
      ),
      confirmLabel: 'Delete webhook',
      danger: true,
    });
    if (ok) await act(() => api.delete(`/v2/webhooks/${webhook.id}`), onDeleted);
  };

  return (
    <article class="panel" aria-labelledby={`wh-${webhook.id}`}>
      <h3 id={`wh-${webhook.id}`} class="break">
        {a.url}
      </h3>
      {isNew && <Notice tone="success">Webhook created. Verify deliveries with its secret below.</Notice>}
      {!a.active && (
        <Notice tone="warning">
          This webhook is off{a.deactivated_reason ? `: ${a.deactivated_reason}` : '.'}
          {a.deactivated_at && (
            <>
              {' '}
              (since <Time value={a.deactivated_at} mode="absolute" />)
            </>
          )}
        </Notice>
      )}
      {error && <FormErrors errors={[error]} />}
      <dl class="facts">
        <div class="fact">
          <dt>Secret</dt>
          <dd>
            <div class="copy-field">
              <code class="copy-value">{reveal ? a.secret : '•'.repeat(24)}</code>
              <button type="button" class="button-secondary button-small" aria-pressed={reveal} onClick={() => setReveal(!reveal)}>
                {reveal ? 'Hide' : 'Reveal'}
                <span class="visually-hidden"> secret</span>
              </button>
              <CopyButton text={a.secret} what="secret" />
            </div>
          </dd>
        </div>
        <div class="fact">
          <dt>Events</dt>
          <dd>
            <ul class="plain-list">
              {a.events.map((e) => (
                <li key={e}>
                  <code>{e}</code>
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div class="fact">
          <dt>Custom headers</dt>
          <dd>
            {a.headers.length ? (
              <ul class="plain-list">
                {a.headers.map((h) => (
                  <li key={h.name}>
                    <code>
                      {h.name}: {h.value}
                    </code>
                  </li>
                ))}
              </ul>
            ) : (
              'None'
            )}
          </dd>
        </div>
        <div class="fact">
          <dt>Created</dt>
          <dd>
            <Time value={a.created_at} />
          </dd>
        </div>
      </dl>
      <div class="button-row">
        <button type="button" class="button-secondary" disabled={busy} onClick={toggleActive}>
          {a.active ? 'Turn off' : 'Turn on'}
        </button>
        <button type="button" class="button-danger" disabled={busy} onClick={remove}>
          Delete
        </button>
      </div>
      <WebhookNotifications webhookId={webhook.id} />
      {confirmElement}
    </article>
  );
}

interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

let rowKeys = 0;

function CreateWebhookForm({
  catalogue,
  onCreated,
  onCancel,
}: {
  catalogue: Loaded<EventCategory[]>;
  onCreated: (w: Webhook) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [secret, setSecret] = useState('');
  const form = useForm();

  const toggle = (name: string, on: boolean) => {
    const next = new Set(events);
    if (on) next.add(name);
    else next.delete(name);
    setEvents(next);
  };
  const setCategory = (c: EventCategory, on: boolean) => {
    const next = new Set(events);
    for (const e of c.events) {
      if (on) next.add(e.name);
      else next.delete(e.name);
    }
    setEvents(next);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!url.trim()) problems.url = 'Enter the https URL that receives the deliveries.';
    if (!events.size) problems.events = 'Pick at least one event.';
    if (headers.some((h) => !h.name.trim() && h.value.trim())) problems.headers = 'Every header needs a name.';
    if (Object.keys(problems).length) return form.fail([], problems);
    const attributes: Record<string, unknown> = {
      url: url.trim(),
      events: [...events],
      headers: headers.filter((h) => h.name.trim()).map((h) => ({ name: h.name.trim(), value: h.value })),
    };
    if (secret.trim()) attributes.secret = secret.trim();
    const doc = await form.run(
      () => api.post<Doc<WebhookAttributes>>('/v2/webhooks', { data: { type: 'webhook', attributes } }),
      ['url', 'events', 'headers', 'secret'],
    );
    if (doc) onCreated(doc.data);
  };

  return (
    <form class="form panel" onSubmit={submit} noValidate aria-labelledby="new-webhook-title">
      <h3 id="new-webhook-title">New webhook</h3>
      <FormErrors errors={form.errors} />
      <TextField
        label="URL"
        type="url"
        name="url"
        inputMode="url"
        placeholder="https://hooks.example.com/tidemark"
        hint="https only; private and loopback addresses are refused."
        value={url}
        onValue={setUrl}
        error={form.fields.url}
      />
      <Async state={catalogue} label="Loading the events…">
        {(cats) => (
          <FieldSet legend="Events" hint="Deliveries are sent for the events you pick." error={form.fields.events}>
            {cats.map((c) => {
              const all = c.events.every((e) => events.has(e.name));
              return (
                <div class="event-category" key={c.id}>
                  <Checkbox label={<strong>{c.name}: all</strong>} checked={all} onChange={(on) => setCategory(c, on)} />
                  <div class="event-list">
                    {c.events.map((ev) => (
                      <Checkbox
                        key={ev.name}
                        label={<code>{ev.name}</code>}
                        hint={ev.description}
                        checked={events.has(ev.name)}
                        onChange={(on) => toggle(ev.name, on)}
                      />
                    ))}
                  </div>
                </div>
              );
            })}
          </FieldSet>
        )}
      </Async>
      <FieldSet legend="Custom headers" hint="Sent with every delivery, e.g. a token your receiver checks." error={form.fields.headers}>
        {headers.map((h, i) => (
          <div class="header-row" key={h.key}>
            <TextField
              label={`Header ${i + 1} name`}
              value={h.name}
              autoComplete="off"
              onValue={(v) => setHeaders(headers.map((x) => (x.key === h.key ? { ...x, name: v } : x)))}
            />
            <TextField
              label={`Header ${i + 1} value`}
              value={h.value}
              autoComplete="off"
              onValue={(v) => setHeaders(headers.map((x) => (x.key === h.key ? { ...x, value: v } : x)))}
            />
            <button type="button" class="button-quiet" onClick={() => setHeaders(headers.filter((x) => x.key !== h.key))}>
              Remove<span class="visually-hidden"> header {i + 1}</span>
            </button>
          </div>
        ))}
        <button
          type="button"
          class="button-secondary button-small"
          onClick={() => setHeaders([...headers, { key: rowKeys++, name: '', value: '' }])}
        >
          Add a header
        </button>
      </FieldSet>
      <TextField
        label="Secret (optional)"
        name="secret"
        autoComplete="off"
        hint="Leave empty to get a new whsec_… secret; give your existing one when moving a receiver to Tidemark."
        value={secret}
        onValue={setSecret}
        error={form.fields.secret}
      />
      <div class="form-actions">
        <SubmitButton busy={form.busy} busyLabel="Creating…">
          Create webhook
        </SubmitButton>
        <button type="button" class="button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
