// The attributes of the /v2 resources the pages read, as the API sends them: derived from the server's response
// schemas (src/render/schemas.ts), the same ones /v2/openapi.json documents. Type-only imports: esbuild drops them,
// so neither zod nor any server code enters the bundle (test/web/imports.test.ts holds the line).
import type { Attributes, Fee as WireFee, Hold as WireHold } from '../../../src/render/schemas.js';
import type { Resource } from './jsonapi';

export type ShipmentAttributes = Attributes<'shipment'>;
export type Shipment = Resource<ShipmentAttributes>;

/** A hold at a terminal (a cleared one is absent). */
export type Hold = WireHold;
/** A fee line as the terminal gives it. */
export type Fee = WireFee;

export type ContainerAttributes = Attributes<'container'>;
export type Container = Resource<ContainerAttributes>;
/** Every `current_status` value the API sends. */
export type ContainerStatus = ContainerAttributes['current_status'];

// The developers' pages.
export type WebhookAttributes = Attributes<'webhook'>;
export type WebhookNotificationAttributes = Attributes<'webhook_notification'>;
export type WebhookNotificationLogAttributes = Attributes<'webhook_notification_log'>;
export type ApiKeyAttributes = Attributes<'api_key'>;
export type AccountAttributes = Attributes<'account'>;

// Custom fields (their definitions are made with the API; the pages show and edit values).
export type CustomFieldDefinitionAttributes = Attributes<'custom_field_definition'>;
export type CustomFieldOptionAttributes = Attributes<'custom_field_option'>;
export type CustomFieldAttributes = Attributes<'custom_field'>;
