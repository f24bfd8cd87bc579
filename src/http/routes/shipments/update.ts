// PATCH /v2/shipments/{id}: the shipment's reference numbers and tags (the rest is the sources' word).
import { z } from 'zod';
import { shipmentKind } from '../../../render/kinds.js';
import { validationFailed } from '../../../domain/errors.js';
import { idMismatch } from '../../errors.js';
import { accountOf, type App, type HttpDeps } from '../../context.js';
import { selfUrl, sendDocument } from '../../reply.js';

import { resourceDocument, shipmentResource } from '../../../render/schemas.js';
import { API_ERRORS, described, errorResponses, idParams, labelList, resourceBody, WRITE_ERRORS } from '../../schemas.js';

const body = resourceBody('shipment', z.object({ ref_numbers: labelList.nullish(), tags: labelList.nullish() }).strict());

export default function updateShipment(app: App, deps: HttpDeps) {
  const kind = shipmentKind(deps);
  app.patch(
    '/v2/shipments/:id',
    {
      schema: {
        tags: ['shipments'],
        summary: 'Edit a shipment',
        description:
          'Replaces its `ref_numbers` and/or `tags` (each a list of strings; `null` or `[]` clears it). Entries are trimmed; blanks and repeats are dropped.',
        params: idParams,
        body,
        // 409: `data.id` names another shipment than the URL.
        response: {
          200: described(resourceDocument(shipmentResource), 'The shipment as edited'),
          ...errorResponses(...API_ERRORS, ...WRITE_ERRORS, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const { data } = req.body;
      if (data.id !== undefined && data.id !== id) throw idMismatch();
      const { ref_numbers, tags } = data.attributes;
      if (ref_numbers === undefined && tags === undefined) {
        throw validationFailed([{ title: 'Nothing to change', detail: 'Give ref_numbers or tags', pointer: '/data/attributes' }]);
      }
      const shipment = await deps.shipments.update(accountOf(req).id, id, {
        ...(ref_numbers !== undefined ? { refNumbers: ref_numbers ?? [] } : {}),
        ...(tags !== undefined ? { tags: tags ?? [] } : {}),
      });
      return sendDocument(reply, 200, { data: kind.render(shipment), links: { self: selfUrl(deps.config.publicUrl, req) } });
    },
  );
}
