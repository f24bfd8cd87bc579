// Webhooks from the account's side: create (validated, SSRF-checked, secret generated or kept), read, edit,
// delete, rotate the secret, and replay or redeliver stored notifications. Secrets are sealed at rest with the
// installation's key (TIDEMARK_SECRET_KEY, else one generated once and kept in the database).
import { isoSeconds } from '../lib/dates.js';
import type { Clock } from '../domain/clock.js';
import { type ErrorItem, notFound, validationFailed } from '../domain/errors.js';
import { isUuid, newId } from '../lib/ids.js';
import { seal, unseal } from '../lib/sealed.js';
import type { SecretKeyring } from './keyring.js';
import { exampleNotification } from '../render/webhook-notification.js';
import type { Db, Queryable } from '../storage/db.js';
import { getSetting, putSetting } from '../storage/repositories/settings.js';
import * as repo from '../storage/repositories/webhooks.js';
import { type EventName, eventCategories, eventFeature, eventsAvailableTo, isEventName } from '../domain/event-catalogue.js';
import type { DeliverySettings } from '../webhooks/delivery.js';
import { generateWebhookSecret, signatureHeaders } from '../webhooks/signing.js';
import { checkWebhookUrl, type Resolver } from '../webhooks/ssrf.js';
import type { DeliveryRequest, DeliveryResult } from '../webhooks/transport.js';

export type { WebhookView } from '../storage/repositories/webhooks.js';

/** How long the previous secret still signs after a rotation. */
export const ROTATION_GRACE_MS = 24 * 3600_000;

const EGRESS_SETTING = 'webhook_egress_ips';

/** Headers a webhook may not set: the delivery's own. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'host',
  'user-agent',
  'connection',
  'transfer-encoding',
  'x-tidemark-webhook-signature',
  'x-t49-webhook-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export interface WebhookInput {
  url?: string | null;
  events?: string[] | null;
  active?: boolean | null;
  headers?: { name: string; value: string }[] | null;
  secret?: string | null;
}

export interface WebhookServiceOptions {
  db: Db;
  wall: Clock;
  keyring: SecretKeyring;
  allowPrivate: boolean;
  /** DNS for the SSRF check (tests inject one). */
  resolver?: Resolver;
  /** For `trigger`: the HTTP client deliveries use, the base of the sample document's links, and delivery settings. */
  transport: { post(req: DeliveryRequest): Promise<DeliveryResult> };
  publicUrl: string;
  delivery: Pick<DeliverySettings, 'timeoutMs' | 'userAgent' | 'referenceHeader'>;
  /** The addresses deliveries leave from, as configured (TIDEMARK_WEBHOOKS_EGRESS_IPS). */
  egressIps: readonly string[];
}

/** What `POST /v2/webhooks/trigger` answers (plain JSON, as the reference API). */
export interface TriggerResult {
  url: string;
  succeeded: boolean;
  error: string | null;
  status_code: number | null;
  request_headers: Record<string, string>;
  request_body: string;
  response_headers: Record<string, string>;
  response_body: string | null;
}

export class WebhookService {
  readonly #db: Db;
  readonly #wall: Clock;
  readonly #keyring: SecretKeyring;
  readonly #allowPrivate: boolean;
  readonly #resolver: Resolver | undefined;
  readonly #o: WebhookServiceOptions;

  constructor(o: WebhookServiceOptions) {
    this.#o = o;
    this.#db = o.db;
    this.#wall = o.wall;
    this.#keyring = o.keyring;
    this.#allowPrivate = o.allowPrivate;
    this.#resolver = o.resolver;
  }

  async create(account: { id: string; features: readonly string[] }, input: WebhookInput): Promise<repo.WebhookView> {
    const problems: ErrorItem[] = [];
    const url = await this.#checkUrl(input.url, problems);
    // Without `events` (the reference's schema requires only `url`): every event the account may receive now, stored
    // as an explicit list. An empty list is still refused.
    const events =
      input.events === undefined || input.events === null
        ? eventsAvailableTo(account.features)
        : this.#checkEvents(input.events, account.features, problems);
    const headers = this.#checkHeaders(input.headers ?? [], problems);
    const secret = input.secret === undefined || input.secret === null ? generateWebhookSecret() : input.secret.trim();
    if (input.secret !== undefined && input.secret !== null && secret.length < 16) {
      problems.push({ pointer: '/data/attributes/secret', detail: 'secret must be at least 16 characters', code: 'too_short' });
    }
    if (problems.length) throw validationFailed(problems);
    const key = await this.#keyring.key();
    const now = this.#wall.now();
    const row = await repo.insertWebhook(this.#db, {
      id: newId(),
      account_id: account.id,
      url: url!,
      active: input.active ?? true,
      events: events!,
      headers,
      secret_sealed: seal(key, secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
    });
    return this.#view(row, key);
  }

  async get(accountId: string, id: string): Promise<repo.WebhookView> {
    const row = await this.#row(this.#db, accountId, id);
    return this.#view(row, await this.#keyring.key());
  }

  async list(accountId: string, page: { limit: number; offset: number }): Promise<{ items: repo.WebhookView[]; total: number }> {
    const { items, total } = await repo.listWebhooks(this.#db, accountId, page);
    const key = await this.#keyring.key();
    return { items: items.map((r) => this.#view(r, key)), total };
  }

  async viewsByIds(accountId: string, ids: string[]): Promise<repo.WebhookView[]> {
    const key = await this.#keyring.key();
    return (await repo.findWebhooksByIds(this.#db, accountId, ids)).map((r) => this.#view(r, key));
  }

  async update(account: { id: string; features: readonly string[] }, id: string, input: WebhookInput): Promise<repo.WebhookView> {
    await this.#row(this.#db, account.id, id);
    const problems: ErrorItem[] = [];
    const changes: repo.WebhookChanges = {};
    if (input.url !== undefined) changes.url = await this.#checkUrl(input.url, problems);
    if (input.events !== undefined) changes.events = this.#checkEvents(input.events, account.features, problems);
    if (input.headers !== undefined) changes.headers = this.#checkHeaders(input.headers ?? [], problems);
    if (input.secret !== undefined && input.secret !== null) {
      problems.push({
        pointer: '/data/attributes/secret',
        detail: 'Change the secret with POST /v2/webhooks/{id}/rotate_secret',
        code: 'read_only',
      });
    }
    if (input.active !== undefined && input.active !== null) {
      changes.active = input.active;
      // Turning a webhook back on starts it afresh: no deactivation reason, no failure streak.
      if (input.active) Object.assign(changes, { deactivated_at: null, deactivated_reason: null, failing_since: null });
    }
    if (problems.length) throw validationFailed(problems);
    const row = await repo.updateWebhook(this.#db, account.id, id, changes, this.#wall.now());
    if (!row) throw notFound('webhook');
    return this.#view(row, await this.#keyring.key());
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.deleteWebhook(this.#db, accountId, id))) throw notFound('webhook');
  }

  /** A new secret; the old one keeps signing beside it for 24 hours so receivers can switch without a gap. */
  async rotateSecret(accountId: string, id: string): Promise<repo.WebhookView> {
    const key = await this.#keyring.key();
    const now = this.#wall.now();
    const row = await this.#db.transaction(async (tx) => {
      const current = await this.#row(tx, accountId, id);
      return repo.updateWebhook(
        tx,
        accountId,
        id,
        {
          secret_sealed: seal(key, generateWebhookSecret()),
          previous_secret_sealed: current.secret_sealed,
          previous_secret_expires_at: new Date(now.getTime() + ROTATION_GRACE_MS),
        },
        now,
      );
    });
    if (!row) throw notFound('webhook');
    return this.#view(row, key);
  }

  /** The secrets a delivery is signed with now: the current one, and the previous one during its grace period. */
  async signingSecrets(row: repo.WebhookRow, now: Date): Promise<string[]> {
    const key = await this.#keyring.key();
    const secrets = [unseal(key, row.secret_sealed)];
    if (row.previous_secret_sealed && row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > now.getTime()) {
      secrets.push(unseal(key, row.previous_secret_sealed));
    }
    return secrets;
  }

  /** `POST /v2/webhook_notifications/{id}/redeliver`: the stored notification, sent again with its id and body. */
  async redeliver(accountId: string, notificationId: string): Promise<void> {
    const ids = isUuid(notificationId)
      ? await repo.requeueNotifications(this.#db, accountId, { ids: [notificationId] }, this.#wall.now())
      : [];
    if (ids.length === 0) throw notFound('webhook notification');
  }

  /** `POST /v2/webhooks/{id}/replay`: every stored notification of the webhook created in the window, sent again. */
  async replay(account: { id: string }, webhookId: string, window: { from: Date; to: Date; events?: string[] }): Promise<number> {
    await this.#row(this.#db, account.id, webhookId);
    const problems: ErrorItem[] = [];
    if (window.from.getTime() > window.to.getTime())
      problems.push({ pointer: '/to', detail: 'to must not be before from', code: 'invalid' });
    (window.events ?? []).forEach((e, i) => {
      if (!isEventName(e)) problems.push({ pointer: `/events/${i}`, detail: `'${e}' is not a webhook event`, code: 'inclusion' });
    });
    if (problems.length) throw validationFailed(problems);
    const ids = await repo.requeueNotifications(
      this.#db,
      account.id,
      { webhookId, from: window.from, to: window.to, ...(window.events?.length ? { events: window.events } : {}) },
      this.#wall.now(),
    );
    return ids.length;
  }

  /** The catalogue by category, without the events the account's features do not unlock. */
  eventCategories(features: readonly string[]) {
    return eventCategories(features);
  }

  /**
   * `GET /v2/webhooks/ips`: the configured egress addresses, and when that list last changed (noted the first
   * time a process sees a list different from the one recorded).
   */
  async egressIps(): Promise<{ webhook_notification_ips: string[]; last_updated: string | null }> {
    const ips = [...this.#o.egressIps];
    const recorded = await getSetting<{ ips: string[]; updated_at: string }>(this.#db, EGRESS_SETTING);
    if (recorded && JSON.stringify(recorded.ips) === JSON.stringify(ips))
      return { webhook_notification_ips: ips, last_updated: recorded.updated_at };
    const now = this.#wall.now();
    const updatedAt = isoSeconds(now);
    await putSetting(this.#db, EGRESS_SETTING, { ips, updated_at: updatedAt }, now);
    return { webhook_notification_ips: ips, last_updated: updatedAt };
  }

  /**
   * `POST /v2/webhooks/trigger`: the event's sample document, sent once to `url` (SSRF-checked like a webhook's)
   * without creating anything, signed when a secret is given; answers with what was sent and received.
   */
  async trigger(
    account: { features: readonly string[] },
    input: { url: string; event: string; secret: string | null },
  ): Promise<TriggerResult> {
    const problems: ErrorItem[] = [];
    if (!isEventName(input.event))
      problems.push({ pointer: '/event', detail: `'${input.event}' is not a webhook event`, code: 'inclusion' });
    else if (eventFeature(input.event) && !account.features.includes(eventFeature(input.event)!))
      problems.push({ pointer: '/event', detail: `'${input.event}' is not enabled for this account`, code: 'not_enabled' });
    const checked = await checkWebhookUrl(input.url.trim(), {
      allowPrivate: this.#allowPrivate,
      ...(this.#resolver ? { resolver: this.#resolver } : {}),
    });
    if (!checked.ok) problems.push({ pointer: '/url', detail: checked.reason, code: 'invalid' });
    if (problems.length) throw validationFailed(problems);
    const document = await exampleNotification(input.event as EventName, this.#o.publicUrl);
    const body = JSON.stringify(document);
    const now = this.#wall.now();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': this.#o.delivery.userAgent,
      ...(input.secret
        ? signatureHeaders({
            id: document.data?.id ?? newId(),
            timestamp: now,
            body,
            secrets: [input.secret],
            referenceHeader: this.#o.delivery.referenceHeader,
          })
        : {}),
    };
    const result = await this.#o.transport.post({ url: input.url.trim(), headers, body, timeoutMs: this.#o.delivery.timeoutMs });
    return {
      url: input.url.trim(),
      succeeded: result.succeeded,
      error: result.error,
      status_code: result.statusCode,
      request_headers: headers,
      request_body: body,
      response_headers: result.responseHeaders,
      response_body: result.responseBody,
    };
  }

  async #row(q: Queryable, accountId: string, id: string): Promise<repo.WebhookRow> {
    const row = isUuid(id) ? await repo.findWebhook(q, accountId, id) : undefined;
    if (!row) throw notFound('webhook');
    return row;
  }

  #view(row: repo.WebhookRow, key: Buffer): repo.WebhookView {
    return {
      id: row.id,
      account_id: row.account_id,
      url: row.url,
      active: row.active,
      events: row.events,
      headers: row.headers,
      secret: unseal(key, row.secret_sealed),
      previous_secret_expires_at: row.previous_secret_expires_at,
      failing_since: row.failing_since,
      deactivated_at: row.deactivated_at,
      deactivated_reason: row.deactivated_reason,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async #checkUrl(value: string | null | undefined, problems: ErrorItem[]): Promise<string | undefined> {
    const pointer = '/data/attributes/url';
    const url = value?.trim();
    if (!url) {
      problems.push({ pointer, detail: "Url can't be blank", code: 'blank' });
      return undefined;
    }
    const checked = await checkWebhookUrl(url, {
      allowPrivate: this.#allowPrivate,
      ...(this.#resolver ? { resolver: this.#resolver } : {}),
    });
    if (!checked.ok) {
      problems.push({ pointer, detail: checked.reason, code: 'invalid' });
      return undefined;
    }
    return url;
  }

  #checkEvents(value: string[] | null | undefined, features: readonly string[], problems: ErrorItem[]): EventName[] | undefined {
    const pointer = '/data/attributes/events';
    if (!value || value.length === 0) {
      problems.push({ pointer, detail: 'events must name at least one event', code: 'blank' });
      return undefined;
    }
    const seen = new Set<string>();
    value.forEach((e, i) => {
      if (!isEventName(e)) problems.push({ pointer: `${pointer}/${i}`, detail: `'${e}' is not a webhook event`, code: 'inclusion' });
      else if (eventFeature(e) && !features.includes(eventFeature(e)!)) {
        problems.push({ pointer: `${pointer}/${i}`, detail: `'${e}' is not enabled for this account`, code: 'not_enabled' });
      } else if (seen.has(e)) problems.push({ pointer: `${pointer}/${i}`, detail: `'${e}' is listed twice`, code: 'taken' });
      seen.add(e);
    });
    return value as EventName[];
  }

  #checkHeaders(value: { name: string; value: string }[], problems: ErrorItem[]): { name: string; value: string }[] {
    const names = new Set<string>();
    value.forEach((h, i) => {
      const pointer = `/data/attributes/headers/${i}`;
      if (!HEADER_NAME.test(h.name))
        problems.push({ pointer: `${pointer}/name`, detail: `'${h.name}' is not a header name`, code: 'invalid' });
      else if (RESERVED_HEADERS.has(h.name.toLowerCase()))
        problems.push({ pointer: `${pointer}/name`, detail: `${h.name} is set by Tidemark and cannot be overridden`, code: 'reserved' });
      else if (names.has(h.name.toLowerCase()))
        problems.push({ pointer: `${pointer}/name`, detail: `${h.name} is listed twice`, code: 'taken' });
      if (/[\r\n\0]/.test(h.value) || h.value.length > 1000)
        problems.push({ pointer: `${pointer}/value`, detail: 'A header value is one line of at most 1000 characters', code: 'invalid' });
      names.add(h.name.toLowerCase());
    });
    if (value.length > 20) problems.push({ pointer: '/data/attributes/headers', detail: 'At most 20 custom headers', code: 'too_long' });
    return value;
  }
}
