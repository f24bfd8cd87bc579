// Every resource schema by its JSON:API `type`, the wire types made from them, and the union of `included`.
import { z } from 'zod';
import {
  accountResource,
  apiKeyResource,
  partyResource,
  partyRoleResource,
  searchResultResource,
  trackingRequestResource,
} from './account.js';
import { containerResource } from './container.js';
import { customFieldDefinitionResource, customFieldOptionResource, customFieldResource } from './custom-fields.js';
import {
  containerCreatedEventResource,
  containerPodTerminalChangedEventResource,
  containerUpdatedEventResource,
  estimatedEventResource,
  rawEventResource,
  transportEventResource,
} from './events.js';
import { metroAreaResource, portResource, railTerminalResource, shippingLineResource, terminalResource, vesselResource } from './places.js';
import { shipmentResource } from './shipment.js';
import {
  documentRepresentationResource,
  documentResource,
  emailSubmissionResource,
  webhookNotificationLogResource,
  webhookNotificationResource,
  webhookResource,
} from './webhooks.js';

/** Every resource schema by its JSON:API `type`. */
export const RESOURCE_SCHEMAS = {
  shipment: shipmentResource,
  container: containerResource,
  transport_event: transportEventResource,
  estimated_event: estimatedEventResource,
  container_updated_event: containerUpdatedEventResource,
  container_created_event: containerCreatedEventResource,
  container_pod_terminal_changed_event: containerPodTerminalChangedEventResource,
  raw_event: rawEventResource,
  tracking_request: trackingRequestResource,
  party: partyResource,
  party_role: partyRoleResource,
  search_result: searchResultResource,
  shipping_line: shippingLineResource,
  port: portResource,
  metro_area: metroAreaResource,
  terminal: terminalResource,
  rail_terminal: railTerminalResource,
  vessel: vesselResource,
  webhook: webhookResource,
  webhook_notification: webhookNotificationResource,
  webhook_notification_log: webhookNotificationLogResource,
  document: documentResource,
  email_submission: emailSubmissionResource,
  document_representation: documentRepresentationResource,
  api_key: apiKeyResource,
  custom_field_definition: customFieldDefinitionResource,
  custom_field_option: customFieldOptionResource,
  custom_field: customFieldResource,
  account: accountResource,
} as const;

export type ResourceType = keyof typeof RESOURCE_SCHEMAS;
/** The wire object of a resource type, e.g. `Resource<'container'>['attributes']['current_status']`. */
export type Resource<T extends ResourceType> = z.infer<(typeof RESOURCE_SCHEMAS)[T]>;
export type Attributes<T extends ResourceType> = Resource<T>['attributes'];

type AnyResource = (typeof RESOURCE_SCHEMAS)[ResourceType];
const ALL_RESOURCES = Object.values(RESOURCE_SCHEMAS) as [AnyResource, ...AnyResource[]];
/** Any resource of `included` (a union on `type`). */
export const includedResource = z
  .discriminatedUnion('type', ALL_RESOURCES)
  .meta({ id: 'IncludedResource', description: 'A sideloaded resource: any resource type, told apart by `type`.' });
