// Request schemas shared by routes. They validate the request and generate /v2/openapi.json.
import { z } from 'zod';

/** The query of a JSON:API list: paging and include are checked by the handlers (400 with a parameter). */
export const listQuery = z
  .object({
    include: z.string().optional().describe('Comma-separated relationship paths to include'),
    page: z
      .object({ number: z.string().optional(), size: z.string().optional() })
      .catchall(z.unknown())
      .optional()
      .describe('page[number] (from 1) and page[size] (at most 100)'),
  })
  .catchall(z.unknown());

export const includeQuery = z.object({ include: z.string().optional() }).catchall(z.unknown());

/** A JSON:API write body `{data: {type, attributes}}` with the given attributes schema. */
export function resourceBody<A extends z.ZodType>(type: string, attributes: A) {
  return z.object({
    data: z.object({
      type: z.literal(type).optional(),
      id: z.string().optional(),
      attributes,
    }),
  });
}

/** Reference numbers and tags as clients edit them: at most 100 strings of at most 255 characters. */
export const labelList = z.array(z.string().max(255)).max(100);

/** The `:id` of a resource's URL. Any text: an id that names nothing (malformed or not) is the service's 404. */
export const idParams = z.object({ id: z.string().describe('The resource id (UUID)') });
