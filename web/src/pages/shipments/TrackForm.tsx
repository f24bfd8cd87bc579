// "Track new": a number, its type (or guessed from it) and its carrier (or detected), then the tracking
// request's status as it changes (GET /v2/tracking_requests/{id} every two seconds while it is pending).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Notice } from '../../components/Alert';
import { FormErrors, SelectField, SubmitButton, TextField } from '../../components/Field';
import { api } from '../../lib/api';
import { useForm } from '../../lib/hooks';
import type { Doc, Resource } from '../../lib/jsonapi';
import { humanize } from '../../lib/labels';
import { Link } from '../../lib/router';
import { lineLabel, useShippingLines } from '../../lib/shippingLines';
import { REQUEST_TYPES, type TrackingRequestAttributes } from '../../lib/tracking';
import { type RequestType, track } from './track';

type TrackingRequest = Resource<TrackingRequestAttributes>;

export function TrackForm({ onTracked }: { onTracked: () => void }) {
  const [number, setNumber] = useState('');
  const [type, setType] = useState<RequestType | ''>('');
  const [scac, setScac] = useState('');
  const [request, setRequest] = useState<TrackingRequest | null>(null);
  const form = useForm();
  const { lines, failed } = useShippingLines();

  const submit = async (e: Event) => {
    e.preventDefault();
    const n = number.trim();
    if (!n) return form.fail([], { request_number: 'Enter the number to track.' });
    setRequest(null);
    const doc = await form.run(() => track(n, type, scac), ['request_number', 'request_type', 'scac', 'number']);
    if (doc) {
      setRequest(doc.data);
      setNumber('');
    }
  };

  return (
    <div class="track-new">
      <form class="form track-form" onSubmit={submit} noValidate>
        <FormErrors errors={form.errors} />
        <div class="track-fields">
          <TextField
            label="Number"
            name="request_number"
            hint="Bill of lading, booking or container number."
            value={number}
            onValue={setNumber}
            error={form.fields.request_number ?? form.fields.number}
            autoComplete="off"
            spellcheck={false}
            required
          />
          <SelectField
            label="Type"
            name="request_type"
            value={type}
            onValue={(v) => setType(v as RequestType | '')}
            error={form.fields.request_type}
            options={[{ value: '', label: 'Guess from the number' }, ...REQUEST_TYPES.map((t) => ({ value: t.value, label: t.label }))]}
          />
          <SelectField
            label="Carrier"
            name="scac"
            value={scac}
            onValue={setScac}
            error={form.fields.scac}
            hint={failed ? 'The carrier list could not be loaded: Tidemark will detect the carrier.' : undefined}
            options={[{ value: '', label: 'Detect automatically' }, ...lines.map((l) => ({ value: l.attributes.scac, label: lineLabel(l) }))]}
          />
        </div>
        <div class="form-actions">
          <SubmitButton busy={form.busy} busyLabel="Sending…">
            Track
          </SubmitButton>
        </div>
      </form>
      {request && <RequestStatus key={request.id} initial={request} onTracked={onTracked} />}
    </div>
  );
}

const WAITING = new Set(['pending']);

/** A tracking request's status, followed while it is pending; `onTracked` once it has a shipment. */
export function RequestStatus({ initial, onTracked }: { initial: TrackingRequest; onTracked: () => void }) {
  const [req, setReq] = useState(initial);
  const [checks, setChecks] = useState(0);
  const told = useRef(false);
  const a = req.attributes;

  useEffect(() => {
    if (!WAITING.has(a.status) || checks >= 90) return;
    const timer = window.setTimeout(async () => {
      try {
        const doc = await api.get<Doc<TrackingRequestAttributes>>(`/v2/tracking_requests/${encodeURIComponent(req.id)}`);
        setReq(doc.data);
      } catch {
        // Try again at the next tick.
      }
      setChecks((c) => c + 1);
    }, 2000);
    return () => window.clearTimeout(timer);
  }, [a.status, checks, req.id]);

  useEffect(() => {
    if (a.status === 'created' && !told.current) {
      told.current = true;
      onTracked();
    }
  }, [a.status]);

  const shipmentId = (req.relationships?.tracked_object?.data as { id: string } | null)?.id;
  const what = `${a.request_number}${a.scac ? ` (${a.scac})` : ''}`;
  let tone: 'info' | 'success' | 'warning' = 'info';
  let text: ComponentChildren;
  switch (a.status) {
    case 'pending':
      text = a.is_retrying
        ? `Tracking request for ${what}: pending, retrying (the carrier did not answer yet).`
        : `Tracking request for ${what}: pending — asking the carrier…`;
      break;
    case 'created':
      tone = 'success';
      text = (
        <>
          Tracking request for {what}: created.{' '}
          {shipmentId ? <Link href={`/shipments/${shipmentId}`}>Open the shipment</Link> : 'The shipment is in the list.'}
        </>
      );
      break;
    case 'awaiting_manifest':
      tone = 'warning';
      text = `Tracking request for ${what}: awaiting manifest — the carrier does not list it yet; Tidemark keeps asking.`;
      break;
    case 'failed':
      tone = 'warning';
      text = `Tracking request for ${what}: failed${a.failed_reason ? ` (${humanize(a.failed_reason).toLowerCase()})` : ''}.`;
      break;
    default:
      text = `Tracking request for ${what}: ${humanize(a.status).toLowerCase()}.`;
  }
  return (
    <Notice tone={tone}>
      <p class="request-status" data-status={a.status}>
        {text}
      </p>
      <p class="muted">Request {req.id}</p>
    </Notice>
  );
}
