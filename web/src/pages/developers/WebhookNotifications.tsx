// A webhook's recent notifications with their delivery status; each one's attempt logs on demand, and a way
// to send one again (redeliver).
import { useState } from 'preact/hooks';
import { Async } from '../../components/Async';
import { type Column, DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Facts';
import { FormErrors } from '../../components/Field';
import { Pager } from '../../components/Pager';
import { Time } from '../../components/Time';
import { api, messageOf } from '../../lib/api';
import { useLoad } from '../../lib/hooks';
import { Included, type ListDoc, pageCount, type Resource } from '../../lib/jsonapi';
import type { WebhookNotificationAttributes, WebhookNotificationLogAttributes } from '../../lib/resources';

type Notification = Resource<WebhookNotificationAttributes> & { logs: Resource<WebhookNotificationLogAttributes>[] };

const PAGE_SIZE = 20;

/** `retrying`: pending after at least one failed attempt. */
export function DeliveryStatus({ status, attempts = 0 }: { status: string; attempts?: number }) {
  if (status === 'succeeded') return <Badge tone="good">Delivered</Badge>;
  if (status === 'failed') return <Badge tone="bad">Failed</Badge>;
  return <Badge tone="warn">{attempts > 0 ? 'Retrying' : 'Pending'}</Badge>;
}

export function WebhookNotifications({ webhookId }: { webhookId: string }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [message, setMessage] = useState<{ error?: string; ok?: string } | null>(null);
  const list = useLoad(
    async (signal) => {
      const doc = await api.get<ListDoc<WebhookNotificationAttributes>>('/v2/webhook_notifications', {
        signal,
        query: { 'filter[webhook_id]': webhookId, include: 'webhook_notification_logs', 'page[number]': page, 'page[size]': PAGE_SIZE },
      });
      const included = new Included(doc.included);
      const rows: Notification[] = doc.data.map((n) => ({
        ...n,
        logs: included
          .many<WebhookNotificationLogAttributes>(n, 'webhook_notification_logs')
          .sort((a, b) => a.attributes.attempt - b.attributes.attempt),
      }));
      return { rows, pages: pageCount(doc, PAGE_SIZE), total: doc.meta?.total };
    },
    [webhookId, page],
  );

  const redeliver = async (n: Notification) => {
    setMessage(null);
    try {
      await api.post(`/v2/webhook_notifications/${encodeURIComponent(n.id)}/redeliver`);
      setMessage({ ok: `Notification ${n.attributes.event} queued for delivery again.` });
      list.reload();
    } catch (err) {
      setMessage({ error: messageOf(err) });
    }
  };

  const columns: Column<Notification>[] = [
    {
      key: 'event',
      header: 'Event',
      rowHeader: true,
      cell: (n) => <code>{n.attributes.event}</code>,
      sortValue: (n) => n.attributes.event,
    },
    { key: 'created', header: 'Created', cell: (n) => <Time value={n.attributes.created_at} />, sortValue: (n) => n.attributes.created_at },
    {
      key: 'status',
      header: 'Delivery',
      cell: (n) => <DeliveryStatus status={n.attributes.delivery_status} attempts={n.logs.length} />,
      sortValue: (n) => n.attributes.delivery_status,
    },
    {
      key: 'last',
      header: 'Last answer',
      cell: (n) => {
        const last = n.logs[n.logs.length - 1];
        if (!last) return <span class="muted">No attempt yet</span>;
        return last.attributes.status_code !== null ? `HTTP ${last.attributes.status_code}` : (last.attributes.error ?? '—');
      },
    },
    {
      key: 'actions',
      header: <span class="visually-hidden">Actions</span>,
      cell: (n) => (
        <div class="row-actions">
          <button
            type="button"
            class="button-secondary button-small"
            aria-expanded={open === n.id}
            aria-controls="notification-attempts"
            onClick={() => setOpen(open === n.id ? null : n.id)}
          >
            {n.logs.length === 1 ? '1 attempt' : `${n.logs.length} attempts`}
          </button>
          <button type="button" class="button-secondary button-small" onClick={() => redeliver(n)}>
            Redeliver<span class="visually-hidden"> {n.attributes.event}</span>
          </button>
        </div>
      ),
    },
  ];

  return (
    <div class="subsection">
      <h4>Recent notifications</h4>
      {message?.error && <FormErrors errors={[message.error]} />}
      {message?.ok && (
        <p class="success-text" role="status">
          {message.ok}
        </p>
      )}
      <Async state={list}>
        {(d) => {
          const selected = d.rows.find((n) => n.id === open);
          return (
            <>
              <DataTable
                caption="Recent notifications"
                hideCaption
                columns={columns}
                rows={d.rows}
                rowKey={(n) => n.id}
                empty="No notifications yet."
              />
              <Pager page={page} pages={d.pages} total={d.total} onPage={setPage} label="Notification pages" />
              <div id="notification-attempts">{selected && <Attempts notification={selected} />}</div>
            </>
          );
        }}
      </Async>
    </div>
  );
}

function Attempts({ notification }: { notification: Notification }) {
  const columns: Column<Resource<WebhookNotificationLogAttributes>>[] = [
    { key: 'attempt', header: 'Attempt', rowHeader: true, cell: (l) => l.attributes.attempt, align: 'end' },
    { key: 'started', header: 'Started', cell: (l) => <Time value={l.attributes.started_at} seconds /> },
    {
      key: 'duration',
      header: 'Took',
      cell: (l) => (l.attributes.duration_ms === null ? '—' : `${l.attributes.duration_ms} ms`),
      align: 'end',
    },
    {
      key: 'result',
      header: 'Result',
      cell: (l) =>
        l.attributes.status_code !== null ? (
          `HTTP ${l.attributes.status_code}`
        ) : (
          <span class="error-text">{l.attributes.error ?? 'No answer'}</span>
        ),
    },
    {
      key: 'body',
      header: 'Response',
      cell: (l) =>
        l.attributes.response_body ? (
          <details>
            <summary>Body</summary>
            <pre class="code-block">{l.attributes.response_body}</pre>
          </details>
        ) : (
          <span class="muted">Empty</span>
        ),
    },
  ];
  return (
    <DataTable
      caption={`Delivery attempts of ${notification.attributes.event} (${notification.id})`}
      columns={columns}
      rows={notification.logs}
      rowKey={(l) => l.id}
      empty="Not attempted yet."
    />
  );
}
