// tidemark://container/{id}: a container as JSON, with the attributes of GET /v2/containers/{id}, read through the
// services with the request's account. Another account's or an unknown id is a resource-not-found error.
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { TidemarkError } from '../../domain/errors.js';
import { isUuid } from '../../lib/ids.js';
import type { ToolContext } from '../context.js';
import { trialRefusal } from '../api-trial.js';
import { kinds } from '../render.js';

/** The MCP error code for an unknown resource (the spec's -32002; the SDK has no constant for it). */
export const RESOURCE_NOT_FOUND = -32002;

export const CONTAINER_URI_TEMPLATE = 'tidemark://container/{id}';

export function registerContainerResource(server: McpServer, { deps, account, request }: ToolContext) {
  const { container: kind } = kinds(deps);
  server.registerResource(
    'container',
    new ResourceTemplate(CONTAINER_URI_TEMPLATE, { list: undefined }),
    {
      title: 'Container',
      description:
        'A container of this account as JSON: the attributes of GET /v2/containers/{id} (status, holds, fees, last free days, availability, terminal). The last free day to act on is pickup_lfd_binding (the earliest that applies where the box is picked up; pickup_lfd_binding_party says whose, pickup_lfd_binding_timezone its calendar); pickup_lfd is the first given of line, terminal, rail. Days left are not in it: get_container states them at the world time. Ids come from search_container or list_containers.',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const raw = variables.id;
      const id = (Array.isArray(raw) ? raw[0] : raw) ?? '';
      const notFound = () => new McpError(RESOURCE_NOT_FOUND, `Resource ${uri.href} not found`, { uri: uri.href });
      if (!isUuid(id)) throw notFound();
      // A free account without a running API trial reads no tracking data (mcp/api-trial.ts).
      const gated = trialRefusal({ deps, account });
      if (gated) throw new McpError(ErrorCode.InvalidRequest, gated, { uri: uri.href, code: 'api_trial_required' });
      try {
        const container = await deps.containers.get(account.id, id.toLowerCase());
        const document = { data: kind.render(container), links: { self: `${deps.config.publicUrl}/v2/containers/${container.id}` } };
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(document, null, 2) }] };
      } catch (err) {
        if (err instanceof TidemarkError && err.code === 'not_found') throw notFound();
        // The SDK would answer the error's own message (PostgreSQL's text, say): log it, say only that it failed.
        request?.log.error({ err, uri: uri.href }, 'MCP resource read failed');
        const id = request ? ` (request id ${request.id})` : '';
        throw new McpError(
          ErrorCode.InternalError,
          `Reading ${uri.href} failed inside Tidemark${id}; the error is logged for the operator.`,
        );
      }
    },
  );
}
