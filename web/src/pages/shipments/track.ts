// Creating a tracking request the way the forms do: the number's type guessed when not given
// (POST /v2/tracking_requests/infer_number), the carrier auto-detected when not given.
import { api } from '../../lib/api';
import type { Doc } from '../../lib/jsonapi';
import type { TrackingRequestAttributes } from '../../lib/tracking';

export type RequestType = TrackingRequestAttributes['request_type'];

interface InferAnswer {
  data: { attributes: { number_type: 'container' | 'bill_of_lading' | 'booking' | null } };
}

/** The request type of a number as Tidemark guesses it. Throws the API's error for an unusable number. */
export async function inferType(number: string): Promise<RequestType> {
  const res = await api.post<InferAnswer>('/v2/tracking_requests/infer_number', { number });
  const t = res.data.attributes.number_type;
  return t === 'booking' ? 'booking_number' : (t ?? 'bill_of_lading');
}

/** POST /v2/tracking_requests: `type` '' guesses it from the number, `scac` '' lets Tidemark detect the carrier. */
export async function track(number: string, type: RequestType | '', scac: string): Promise<Doc<TrackingRequestAttributes>> {
  const request_type = type || (await inferType(number));
  return api.post<Doc<TrackingRequestAttributes>>('/v2/tracking_requests', {
    data: {
      type: 'tracking_request',
      attributes: { request_type, request_number: number, ...(scac ? { scac } : { auto_detect_vocc_scac: true }) },
    },
  });
}
