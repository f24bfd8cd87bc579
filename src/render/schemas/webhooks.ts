// Webhooks, their notifications and delivery attempts (api-wire-notes §4.13), and the document events' sample
// resources (Tidemark processes no documents: only the samples show them).
import { z } from 'zod';
import { EVENT_NAMES } from '../../domain/events.js';
import { DELIVERY_STATUSES, at, ext, linkedResource, resource, text, toMany, toOne } from './common.js';

export const webhookAttributes = z.strictObject({
  url: z.string(),
  active: z.boolean(),
  events: z.array(z.enum(EVENT_NAMES)),
  secret: z.string(),
  headers: z.array(z.strictObject({ name: z.string(), value: z.string() })),
  created_at: at(),
  updated_at: at(ext('when the webhook was last changed.')),
  deactivated_at: at(ext('when Tidemark switched it off after its deliveries kept failing.')),
  deactivated_reason: text(ext('why Tidemark switched it off.')),
});

export const webhookResource = resource('webhook', {
  id: 'Webhook',
  description: 'A webhook endpoint (api-wire-notes §4.13).',
  attributes: webhookAttributes,
  relationships: z.strictObject({}),
});

export const webhookNotificationAttributes = z.strictObject({
  id: z.string(),
  event: z.enum(EVENT_NAMES),
  delivery_status: z.enum(DELIVERY_STATUSES),
  created_at: at(),
  version: z.string().optional().meta({ description: 'Document events only: the version of their document schema.' }),
});

export const webhookNotificationResource = resource('webhook_notification', {
  id: 'WebhookNotification',
  description: 'A notification of an event to a webhook (api-wire-notes §4.13).',
  attributes: webhookNotificationAttributes,
  relationships: z.strictObject({
    webhook: toOne('webhook'),
    reference_object: toOne(
      'tracking_request',
      'transport_event',
      'estimated_event',
      'container_updated_event',
      'container_created_event',
      'container_pod_terminal_changed_event',
    )
      .optional()
      .meta({ description: 'Every event but the document events.' }),
    document: toOne('document').optional().meta({ description: 'Document events only.' }),
    webhook_notification_logs: toMany('webhook_notification_log'),
  }),
});

export const webhookNotificationLogAttributes = z.strictObject({
  attempt: z.number().int(),
  started_at: at(),
  duration_ms: z.number().int().nullable(),
  status_code: z.number().int().nullable(),
  error: text(),
  response_body: text('The first 2 KB.'),
});

export const webhookNotificationLogResource = resource('webhook_notification_log', {
  id: 'WebhookNotificationLog',
  description: ext('one delivery attempt of a notification.'),
  attributes: webhookNotificationLogAttributes,
  relationships: z.strictObject({ webhook_notification: toOne('webhook_notification') }),
});

// ---------- document events' samples (Tidemark processes no documents: only the samples show them) ----------

export const documentResource = linkedResource('document', {
  id: 'Document',
  description: 'A document of the document events; only in `GET /v2/webhook_notifications/examples`.',
  attributes: z.strictObject({
    name: z.string(),
    document_type: text(),
    document_type_manual: text(),
    classification_notes: text(),
    source: z.enum(['upload', 'api', 'email', 'split_document']),
    file_name: text(),
    file_content_type: text(),
    file_size_bytes: z.number().int().nullable(),
    created_at: at(),
    updated_at: at(),
  }),
  relationships: z.strictObject({
    email_submission: toOne('email_submission'),
    last_document_representation: toOne('document_representation'),
  }),
});

export const emailSubmissionResource = resource('email_submission', {
  id: 'EmailSubmission',
  description: 'The e-mail a sample document came in; only in the document events’ samples.',
  attributes: z.strictObject({
    from: z.string(),
    subject: z.string(),
    attachments_count: z.number().int(),
    received_at: at(),
    created_at: at(),
  }),
  relationships: z.strictObject({ documents: toMany('document') }),
});

export const documentRepresentationResource = resource('document_representation', {
  id: 'DocumentRepresentation',
  description: 'The extraction of a sample document; only in the document events’ samples.',
  attributes: z.strictObject({
    status: z.enum(['extracted', 'failed']),
    schema_id: z.string(),
    extracted_data: z.record(z.string(), z.unknown()).nullable(),
    error: text(),
    created_at: at(),
    updated_at: at(),
  }),
  relationships: z.strictObject({ document: toOne('document') }),
});
