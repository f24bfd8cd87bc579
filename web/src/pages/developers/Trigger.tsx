// POST /v2/webhooks/trigger: sends an event's sample notification to a URL, without creating anything, and
// shows what was sent and what came back.
import { useEffect, useState } from 'preact/hooks';
import { Async } from '../../components/Async';
import { Badge, Facts } from '../../components/Facts';
import { Checkbox, FormErrors, SelectField, SubmitButton, TextField } from '../../components/Field';
import { api } from '../../lib/api';
import { type Loaded, useForm } from '../../lib/hooks';
import type { EventCategory, Webhook } from './Webhooks';

interface TriggerResult {
  url: string;
  succeeded: boolean;
  error: string | null;
  status_code: number | null;
  request_headers: Record<string, string>;
  request_body: string;
  response_headers: Record<string, string>;
  response_body: string | null;
}

export function TriggerForm({ catalogue, webhook }: { catalogue: Loaded<EventCategory[]>; webhook: Webhook | null }) {
  const [url, setUrl] = useState(webhook?.attributes.url ?? '');
  const [event, setEvent] = useState('');
  const [sign, setSign] = useState(!!webhook);
  const [result, setResult] = useState<TriggerResult | null>(null);
  const form = useForm();

  // Selecting a webhook fills its URL and first event in.
  useEffect(() => {
    if (!webhook) return;
    setUrl(webhook.attributes.url);
    setEvent(webhook.attributes.events[0] ?? '');
    setSign(true);
  }, [webhook]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!url.trim()) problems.url = 'Enter the URL to send the sample to.';
    if (!event) problems.event = 'Pick the event whose sample to send.';
    if (Object.keys(problems).length) return form.fail([], problems);
    setResult(null);
    const body: Record<string, string> = { url: url.trim(), event };
    if (sign && webhook) body.secret = webhook.attributes.secret;
    const r = await form.run(() => api.post<TriggerResult>('/v2/webhooks/trigger', body), ['url', 'event']);
    if (r) setResult(r);
  };

  return (
    <>
      <p>Sends the sample notification of an event to a URL once, as a delivery would, and shows the receiver's answer.</p>
      <form class="form form-inline" onSubmit={submit} noValidate>
        <FormErrors errors={form.errors} />
        <TextField label="Send to URL" type="url" name="trigger-url" inputMode="url" value={url} onValue={setUrl} error={form.fields.url} />
        <Async state={catalogue} label="Loading the events…">
          {(cats) => (
            <SelectField
              label="Event"
              value={event}
              onValue={setEvent}
              error={form.fields.event}
              options={[
                { value: '', label: 'Choose an event' },
                ...cats.flatMap((c) => c.events.map((ev) => ({ value: ev.name, label: ev.name }))),
              ]}
            />
          )}
        </Async>
        {webhook && <Checkbox label="Sign with the selected webhook's secret" checked={sign} onChange={setSign} />}
        <div class="form-actions">
          <SubmitButton busy={form.busy} busyLabel="Sending…">
            Send test
          </SubmitButton>
        </div>
      </form>
      <div aria-live="polite">
        {result && (
          <div class="panel">
            <h3>Result</h3>
            <Facts
              items={[
                ['Outcome', result.succeeded ? <Badge tone="good">Accepted</Badge> : <Badge tone="bad">Failed</Badge>],
                ['Status', result.status_code !== null ? `HTTP ${result.status_code}` : 'No answer'],
                ['Error', result.error],
                ['URL', <span class="break">{result.url}</span>],
              ]}
            />
            <details>
              <summary>Request headers and body</summary>
              <pre class="code-block">{Object.entries(result.request_headers).map(([k, v]) => `${k}: ${v}\n`)}</pre>
              <pre class="code-block">{pretty(result.request_body)}</pre>
            </details>
            <details>
              <summary>Response</summary>
              <pre class="code-block">{Object.entries(result.response_headers).map(([k, v]) => `${k}: ${v}\n`)}</pre>
              <pre class="code-block">{result.response_body ?? '(empty)'}</pre>
            </details>
          </div>
        )}
      </div>
    </>
  );
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
