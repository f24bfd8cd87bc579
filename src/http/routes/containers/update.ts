// PATCH /v2/containers/{id} (and the reference schema's id-less PATCH /v2/containers, the id in the body):
// reference numbers, and `delivered_at` to mark a delivery by hand.
import { z } from 'zod';
import { containerKind } from '../../../render/kinds.js';
import { validationFailed } from '../../../domain/errors.js';
import { isIsoInstant } from '../../../lib/dates.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';

import { containerResource, resourceDocument } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, labelList, resourceBody, WRITE_ERRORS } from '../../schemas.js';
import { idMismatch } from '../../errors.js';

const body = resourceBody(
  'container',
  z
    .object({
      ref_numbers: labelList.nullish(),
      delivered_at: z
        .string()
        .refine(isIsoInstant, 'must be an ISO 8601 date-time with a zone that exists, e.g. 2026-03-01T14:30:00Z')
        .nullish(),
    })
    .strict(),
);

const description =
  'Replaces `ref_numbers` (a list; `null` or `[]` clears it) and/or marks a delivery by hand with `delivered_at` ' +
  '(ISO 8601; not in the future): the container becomes `delivered` and `container.transport.delivered` is recorded ' +
  'once (`data_source: user`). `delivered_at: null` takes the mark back.';

const edited = described(resourceDocument(containerResource), 'The container as edited');

export default function updateContainer(app: App, deps: HttpDeps) {
  const kind = containerKind(deps);
  const edit = (accountId: string, id: string, attributes: z.infer<typeof body>['data']['attributes']) => {
    const { ref_numbers, delivered_at } = attributes;
    if (ref_numbers === undefined && delivered_at === undefined) {
      throw validationFailed([{ title: 'Nothing to change', detail: 'Give ref_numbers or delivered_at', pointer: '/data/attributes' }]);
    }
    return deps.containers.update(accountId, id, {
      ...(ref_numbers !== undefined ? { refNumbers: ref_numbers ?? [] } : {}),
      // Instants are kept to the second, as everywhere on the wire.
      ...(delivered_at !== undefined
        ? { deliveredAt: delivered_at === null ? null : new Date(Math.floor(Date.parse(delivered_at) / 1000) * 1000) }
        : {}),
    });
  };
  app.patch(
    '/v2/containers/:id',
    {
      schema: {
        tags: ['containers'],
        summary: 'Edit a container',
        description,
        params: idParams,
        body,
        // 409: `data.id` names another container than the URL.
        response: { 200: edited, ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404, 409) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      if (req.body.data.id !== undefined && req.body.data.id !== id) throw idMismatch();
      const container = await edit(accountOf(req).id, id, req.body.data.attributes);
      return sendDocument(reply, 200, { data: kind.render(container), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
  app.patch(
    '/v2/containers',
    {
      schema: {
        tags: ['containers'],
        summary: 'Edit a container (id in the body)',
        description: `The reference schema's form of PATCH /v2/containers/{id}: \`data.id\` names the container. ${description}`,
        body,
        // 404: `data.id` names no container of the account.
        response: { 200: edited, ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404) },
      },
    },
    async (req, reply) => {
      const id = req.body.data.id;
      if (!id) throw validationFailed([{ title: 'Missing id', detail: 'data.id names the container to edit', pointer: '/data/id' }]);
      const container = await edit(accountOf(req).id, id, req.body.data.attributes);
      return sendDocument(reply, 200, {
        data: kind.render(container),
        links: { self: `${deps.config.publicUrl}/v2/containers/${container.id}` },
      });
    },
  );
}
