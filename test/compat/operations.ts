// Every operation of the reference API (Terminal49 API v2: 83 operations on 56 paths, the inventory of
// /work/shared/reference/custom-fields-documents-wire.md §4.3), each with whether Tidemark serves it. Paths are the
// reference's, relative to /v2. test/compat/operations.test.ts keeps this list true against the app's route table
// (a /v2 route the reference has must be here; `served` must be routed, `not served` must not be), and
// test/compat/migrating-doc.test.ts keeps docs/migrating.md's list of what is not served equal to it. Tidemark's own
// routes beyond the reference are not here: they are listed in docs/extensions.md.

/** Where the operation is described: the reference's wire notes (api-wire-notes.md) by section, A = custom fields, B = documents. */
export type Section =
  | 'shipments'
  | 'tracking_requests'
  | 'containers'
  | 'webhooks'
  | 'webhook_notifications'
  | 'reference_data'
  | 'parties'
  | 'search'
  | 'A'
  | 'B';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Operation {
  method: Method;
  /** The reference's path template, relative to /v2 (`/shipments/{id}`). */
  path: string;
  operationId: string;
  section: Section;
  status: 'served' | 'not served';
  /** Why Tidemark does not serve it (for `not served` only). */
  reason?: string;
}

const served = (method: Method, path: string, operationId: string, section: Section): Operation => ({
  method,
  path,
  operationId,
  section,
  status: 'served',
});

/** Documents, e-mail submissions and document schemas: no file intake in Tidemark yet. */
const NO_FILE_INTAKE =
  'no file intake in Tidemark yet: documents arrive through a direct upload to object storage (or e-mail) and are classified and extracted by a service Tidemark does not have';

const notServed = (method: Method, path: string, operationId: string, section: Section, reason: string): Operation => ({
  method,
  path,
  operationId,
  section,
  status: 'not served',
  reason,
});

export const OPERATIONS: readonly Operation[] = [
  // ---- shipments ----
  served('GET', '/shipments', 'get-shipments', 'shipments'),
  served('GET', '/shipments/{id}', 'get-shipment-id', 'shipments'),
  served('PATCH', '/shipments/{id}', 'patch-shipments-id', 'shipments'),
  served('PATCH', '/shipments/{id}/stop_tracking', 'patch-shipments-id-stop-tracking', 'shipments'),
  served('PATCH', '/shipments/{id}/resume_tracking', 'patch-shipments-id-resume-tracking', 'shipments'),
  served('GET', '/shipments/{shipment_id}/custom_fields', 'get-shipments-custom-fields', 'A'),
  served('POST', '/shipments/{shipment_id}/custom_fields', 'post-shipments-custom-fields', 'A'),
  served('PATCH', '/shipments/{shipment_id}/custom_fields/{api_slug}', 'patch-shipments-custom-fields-api-slug', 'A'),
  served('DELETE', '/shipments/{shipment_id}/custom_fields/{api_slug}', 'delete-shipments-custom-fields-api-slug', 'A'),

  // ---- tracking requests ----
  served('POST', '/tracking_requests', 'post-track', 'tracking_requests'),
  served('GET', '/tracking_requests', 'get-tracking-requests', 'tracking_requests'),
  served('POST', '/tracking_requests/infer_number', 'post-infer-number', 'tracking_requests'),
  served('GET', '/tracking_requests/{id}', 'get-track-request-by-id', 'tracking_requests'),
  served('PATCH', '/tracking_requests/{id}', 'patch-track-request-by-id', 'tracking_requests'),
  served('GET', '/tracking_requests/{tracking_request_id}/custom_fields', 'get-tracking-requests-custom-fields', 'A'),
  served('POST', '/tracking_requests/{tracking_request_id}/custom_fields', 'post-tracking-requests-custom-fields', 'A'),
  served(
    'PATCH',
    '/tracking_requests/{tracking_request_id}/custom_fields/{api_slug}',
    'patch-tracking-requests-custom-fields-api-slug',
    'A',
  ),
  served(
    'DELETE',
    '/tracking_requests/{tracking_request_id}/custom_fields/{api_slug}',
    'delete-tracking-requests-custom-fields-api-slug',
    'A',
  ),

  // ---- webhooks ----
  served('GET', '/webhooks', 'get-webhooks', 'webhooks'),
  served('POST', '/webhooks', 'post-webhooks', 'webhooks'),
  served('GET', '/webhooks/{id}', 'get-webhooks-id', 'webhooks'),
  served('PATCH', '/webhooks/{id}', 'patch-webhooks-id', 'webhooks'),
  served('DELETE', '/webhooks/{id}', 'delete-webhooks-id', 'webhooks'),
  served('GET', '/webhooks/events', 'get-webhooks-events', 'webhooks'),
  served('GET', '/webhooks/ips', 'get-webhooks-ips', 'webhooks'),
  served('POST', '/webhooks/trigger', 'post-webhooks-trigger', 'webhooks'),

  // ---- webhook notifications ----
  served('GET', '/webhook_notifications', 'get-webhook-notifications', 'webhook_notifications'),
  served('GET', '/webhook_notifications/{id}', 'get-webhook-notification-id', 'webhook_notifications'),
  served('GET', '/webhook_notifications/examples', 'get-webhook-notifications-example', 'webhook_notifications'),

  // ---- containers ----
  served('GET', '/containers', 'get-containers', 'containers'),
  // The reference's schema has no {id} in this path (a defect): the container is data.id. Tidemark serves both forms.
  served('PATCH', '/containers', 'patch-containers-id', 'containers'),
  served('GET', '/containers/{id}', 'get-containers-id', 'containers'),
  served('GET', '/containers/{id}/raw_events', 'get-containers-id-raw_events', 'containers'),
  served('GET', '/containers/{id}/transport_events', 'get-containers-id-transport_events', 'containers'),
  served('GET', '/containers/{id}/map_geojson', 'get-containers-id-map-geojson', 'containers'),
  served('PATCH', '/containers/{id}/refresh', 'patch-containers-id-refresh', 'containers'),
  served('GET', '/containers/{container_id}/custom_fields', 'get-containers-custom-fields', 'A'),
  served('POST', '/containers/{container_id}/custom_fields', 'post-containers-custom-fields', 'A'),
  served('PATCH', '/containers/{container_id}/custom_fields/{api_slug}', 'patch-containers-custom-fields-api-slug', 'A'),
  served('DELETE', '/containers/{container_id}/custom_fields/{api_slug}', 'delete-containers-custom-fields-api-slug', 'A'),

  // ---- reference data ----
  served('GET', '/shipping_lines', 'get-shipping_lines', 'reference_data'),
  served('GET', '/shipping_lines/{id}', 'get-shipping_lines-id', 'reference_data'),
  served('GET', '/metro_areas/{id}', 'get-metro-area-id', 'reference_data'),
  served('GET', '/ports/{id}', 'get-port-id', 'reference_data'),
  served('GET', '/terminals/{id}', 'get-terminal-id', 'reference_data'),
  // One template, two entries in the reference: the server tells a UUID from an IMO.
  served('GET', '/vessels/{id}', 'get-vessels-id', 'reference_data'),
  served('GET', '/vessels/{imo}', 'get-vessels-imo', 'reference_data'),
  served('GET', '/vessels/{id}/future_positions', 'get-vessels-id-future-positions', 'reference_data'),
  served('GET', '/vessels/{id}/future_positions_with_coordinates', 'get-vessels-id-future-positions-with-coordinates', 'reference_data'),

  // ---- parties ----
  served('GET', '/parties', 'list-parties', 'parties'),
  served('POST', '/parties', 'post-party', 'parties'),
  served('GET', '/parties/{id}', 'get-parties-id', 'parties'),
  served('PATCH', '/parties/{id}', 'edit-party', 'parties'),

  // ---- custom fields (definitions, options, values) ----
  served('GET', '/custom_field_definitions', 'get-custom-field-definitions', 'A'),
  served('POST', '/custom_field_definitions', 'post-custom-field-definitions', 'A'),
  served('GET', '/custom_field_definitions/{id}', 'get-custom-field-definitions-id', 'A'),
  served('PATCH', '/custom_field_definitions/{id}', 'patch-custom-field-definitions-id', 'A'),
  served('DELETE', '/custom_field_definitions/{id}', 'delete-custom-field-definitions-id', 'A'),
  served('GET', '/custom_field_definitions/{definition_id}/options', 'get-custom-field-options', 'A'),
  served('POST', '/custom_field_definitions/{definition_id}/options', 'post-custom-field-options', 'A'),
  served('GET', '/custom_field_definitions/{definition_id}/options/{option_id}', 'get-custom-field-options-id', 'A'),
  served('PATCH', '/custom_field_definitions/{definition_id}/options/{option_id}', 'patch-custom-field-options-id', 'A'),
  served('DELETE', '/custom_field_definitions/{definition_id}/options/{option_id}', 'delete-custom-field-options-id', 'A'),
  served('GET', '/custom_fields', 'get-custom-fields', 'A'),
  served('POST', '/custom_fields', 'post-custom-fields', 'A'),
  served('GET', '/custom_fields/{id}', 'get-custom-fields-id', 'A'),
  served('PATCH', '/custom_fields/{id}', 'patch-custom-fields-id', 'A'),
  served('DELETE', '/custom_fields/{id}', 'delete-custom-fields-id', 'A'),

  // ---- documents, e-mail submissions, document schemas ----
  notServed('GET', '/documents', 'get-documents', 'B', NO_FILE_INTAKE),
  notServed('POST', '/documents', 'post-documents', 'B', NO_FILE_INTAKE),
  notServed('GET', '/documents/types', 'get-documents-types', 'B', NO_FILE_INTAKE),
  notServed('GET', '/documents/{id}', 'get-documents-id', 'B', NO_FILE_INTAKE),
  notServed('PATCH', '/documents/{id}', 'patch-documents-id', 'B', NO_FILE_INTAKE),
  notServed('DELETE', '/documents/{id}', 'delete-documents-id', 'B', NO_FILE_INTAKE),
  notServed('GET', '/documents/{id}/download_url', 'get-documents-id-download_url', 'B', NO_FILE_INTAKE),
  notServed('POST', '/documents/{id}/reextract', 'post-documents-id-reextract', 'B', NO_FILE_INTAKE),
  notServed('POST', '/documents/{id}/reclassify', 'post-documents-id-reclassify', 'B', NO_FILE_INTAKE),
  notServed('POST', '/documents/{id}/relink', 'post-documents-id-relink', 'B', NO_FILE_INTAKE),
  notServed('POST', '/documents/{id}/rotate', 'post-documents-id-rotate', 'B', NO_FILE_INTAKE),
  notServed('GET', '/email_submissions', 'get-email_submissions', 'B', NO_FILE_INTAKE),
  notServed('GET', '/email_submissions/{id}', 'get-email_submissions-id', 'B', NO_FILE_INTAKE),
  notServed('GET', '/document_schemas/{id}', 'get-document_schemas-id', 'B', NO_FILE_INTAKE),

  // ---- search ----
  served('GET', '/search', 'searchAll', 'search'),
];

/** The operations Tidemark serves. */
export const SERVED = OPERATIONS.filter((o) => o.status === 'served');
/** The custom-field operations (section A of the custom-fields wire notes). */
export const CUSTOM_FIELD_OPERATIONS = OPERATIONS.filter((o) => o.section === 'A');

/** `/shipments/{id}` → the app's route pattern `/v2/shipments/:id`. */
export const routePattern = (path: string) => `/v2${path.replace(/\{([^}]+)\}/g, ':$1')}`;

/** A route pattern with its parameter names dropped (`/v2/shipments/:`), to compare templates that name them differently. */
export const templateKey = (method: string, pattern: string) => `${method} ${pattern.replace(/:[^/]+/g, ':').replace(/\{[^}]+\}/g, ':')}`;
