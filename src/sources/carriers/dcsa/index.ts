// Any carrier that speaks DCSA Track & Trace (2.2 or 3.0) is one of these definitions: `dcsa:<SCAC>`.
// The sandbox carriers use it too, so the path real data takes is the path the tests take.
import { z } from 'zod';
import { normalizeContainerNumber } from '../../../domain/container-number.js';
import { type NumberType, type SourceAdapter, type SourceDefinition, SourceError } from '../../contract.js';
import { type DcsaAuth, DcsaClient } from './client.js';
import { payloadSha256 } from '../../http.js';
import { arrivalNoticeReference } from './arrival-notice.js';
import { dcsaBookingStatus, parseDcsaEvents } from './parse.js';

export { payloadSha256 } from '../../http.js';

export { blamesParameter, DcsaClient, type DcsaAuth, type DcsaVersion, parseRetryAfter, QUERY_PARAMETER } from './client.js';
export { arrivalNoticeReference, mergeArrivalNotices } from './arrival-notice.js';
export { type DcsaBookingStatus, dcsaBookingStatus, parseDcsaEvents, splitDcsaPayload, stableJson } from './parse.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const httpUrl = z.url({ protocol: /^https?$/, normalize: false });

export const dcsaAuthSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({
    type: z.literal('header'),
    name: z.string().regex(HEADER_NAME, 'expected an HTTP header name'),
    // A CR or LF would let the value start a second header.
    value: z
      .string()
      .min(1)
      .regex(/^[^\r\n]*$/, 'must not contain line breaks'),
  }),
  z.object({
    type: z.literal('oauth2'),
    tokenUrl: httpUrl,
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    scope: z.string().min(1).optional(),
  }),
]);

export const dcsaConfigSchema = z.object({
  /** The root the DCSA paths hang from: `{baseUrl}/v2/events` (2.2) or `{baseUrl}/events` (3.0). */
  baseUrl: httpUrl,
  version: z.enum(['2.2', '3.0']).default('2.2'),
  auth: dcsaAuthSchema.default({ type: 'none' }),
  timeoutMs: z.number().int().min(100).max(300_000).default(30_000),
  pageSize: z.number().int().min(1).max(1000).default(100),
  /**
   * Root of the carrier's DCSA Arrival Notice 1.0.1 API: notices are read from `{arrivalNoticeUrl}/arrival-notices`
   * with the same credentials, for weights, seals and the line's free time. Unset: not read.
   */
  arrivalNoticeUrl: httpUrl.optional(),
});

export type DcsaConfig = z.output<typeof dcsaConfigSchema>;

// The client keeps its own plain type; this line fails to compile if the two ever disagree.
const _authMatches: (a: z.output<typeof dcsaAuthSchema>) => DcsaAuth = (a) => a;
void _authMatches;

const NUMBER_TYPES: readonly NumberType[] = ['bill_of_lading', 'booking_number', 'container'];

export interface DcsaCarrierOptions {
  /** The carrier's SCAC, e.g. `MAEU`. */
  scac: string;
  name: string;
  /** For an in-process transport (the sandbox); defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export function dcsaCarrierSource(options: DcsaCarrierOptions): SourceDefinition<DcsaConfig> {
  const scac = options.scac.trim().toUpperCase();
  if (!/^[A-Z]{2,4}$/.test(scac)) throw new Error(`dcsaCarrierSource: "${options.scac}" is not a SCAC (2–4 letters)`);
  const id = `dcsa:${scac}`;
  return {
    id,
    kind: 'carrier',
    name: options.name,
    tracks: { scacs: [scac], numberTypes: NUMBER_TYPES },
    configSchema: dcsaConfigSchema,
    create(config: DcsaConfig): SourceAdapter {
      const client = new DcsaClient({ ...config, fetch: options.fetch });
      return {
        async fetch(target, ctx) {
          ctx.signal.throwIfAborted();
          const numberType = target.numberType;
          // A vessel is not something a carrier's Track & Trace is asked about: failing here, typed, costs no request.
          if (numberType === 'vessel_imo')
            throw new SourceError('invalid_number', `${id}: DCSA carriers do not track vessels (vessel_imo)`);
          const query = { numberType, number: queryNumber(numberType, target.number) };
          const { events } = await client.fetchEvents(query, ctx);
          // The stored payload has the shape of one response, so parsing it later needs nothing else.
          const payload: unknown = config.version === '2.2' ? events : { events };
          const booking = dcsaBookingStatus(payload);
          if (booking.status === 'cancelled') {
            throw new SourceError('cancelled', `${id}: booking ${booking.bookingNumber ?? query.number} was cancelled`);
          }
          if (booking.status === 'awaiting_manifest') {
            throw new SourceError(
              'awaiting_manifest',
              `${id}: booking ${booking.bookingNumber ?? query.number} is known, nothing is manifested yet`,
            );
          }
          const options = { carrierScac: scac, target: query };
          if (!config.arrivalNoticeUrl) {
            const facts = parseDcsaEvents(payload, options);
            return { sourceId: id, target, fetchedAt: ctx.now(), payload, payloadSha256: payloadSha256(payload), facts };
          }
          // What TNT lacks (weights, seals, free time) is in the bill of lading's arrival notices: the events say
          // which bill of lading that is when a booking or a container was asked for.
          const reference = arrivalNoticeReference(parseDcsaEvents(payload, options), query);
          const arrivalNotices = reference ? await client.fetchArrivalNotices(reference, ctx) : [];
          const combined = { events: payload, arrivalNotices };
          const facts = parseDcsaEvents(combined, options);
          return { sourceId: id, target, fetchedAt: ctx.now(), payload: combined, payloadSha256: payloadSha256(combined), facts };
        },
      };
    },
  };
}

function queryNumber(numberType: NumberType, number: string): string {
  return numberType === 'container' ? normalizeContainerNumber(number) : number.trim();
}

/**
 * Parses `TIDEMARK_CARRIER_<SCAC>_AUTH`:
 * - `none`
 * - `header:<Name>:<value>` (the value may contain `:`), e.g. `header:Consumer-Key:abc123`
 * - `bearer:<token>`, short for `header:Authorization:Bearer <token>`
 * - `oauth2:<tokenUrl>|<clientId>|<clientSecret>[|<scope>]`
 * - a JSON object in the config's `auth` shape, for values that contain `|`
 * Throws an Error that never repeats the value (it holds a secret).
 */
export function parseAuthSetting(value: string): DcsaAuth {
  const v = value.trim();
  let candidate: unknown;
  if (v === '' || v === 'none') {
    candidate = { type: 'none' };
  } else if (v.startsWith('{')) {
    try {
      candidate = JSON.parse(v);
    } catch {
      throw new Error('auth setting: not valid JSON');
    }
  } else {
    const colon = v.indexOf(':');
    const scheme = colon < 0 ? v : v.slice(0, colon).toLowerCase();
    const rest = colon < 0 ? '' : v.slice(colon + 1);
    if (scheme === 'header') {
      const sep = rest.indexOf(':');
      if (sep <= 0) throw new Error('auth setting: expected header:<Name>:<value>');
      candidate = { type: 'header', name: rest.slice(0, sep).trim(), value: rest.slice(sep + 1) };
    } else if (scheme === 'bearer') {
      if (!rest) throw new Error('auth setting: expected bearer:<token>');
      candidate = { type: 'header', name: 'Authorization', value: `Bearer ${rest}` };
    } else if (scheme === 'oauth2') {
      const parts = rest.split('|');
      if (parts.length < 3 || parts.length > 4) {
        throw new Error(
          'auth setting: expected oauth2:<tokenUrl>|<clientId>|<clientSecret>[|<scope>] (use the JSON form if a value contains "|")',
        );
      }
      const [tokenUrl, clientId, clientSecret, scope] = parts;
      candidate = { type: 'oauth2', tokenUrl, clientId, clientSecret, ...(scope ? { scope } : {}) };
    } else {
      throw new Error('auth setting: expected none, header:…, bearer:…, oauth2:… or a JSON object');
    }
  }
  const parsed = dcsaAuthSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`auth setting: ${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
