// The webhook write body that create and update share: `{data: {type: webhook, attributes}}`.
import { z } from 'zod';

const header = z.object({ name: z.string(), value: z.string() }).strict();
const attributes = z
  .object({
    url: z.string().nullish(),
    events: z.array(z.string()).nullish(),
    active: z.boolean().nullish(),
    headers: z.array(header).nullish(),
    secret: z.string().nullish(),
  })
  .strict();

export const webhookBody = z.object({ data: z.object({ type: z.literal('webhook').optional(), id: z.string().optional(), attributes }) });
