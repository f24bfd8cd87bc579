// What every face returns: an HTTP answer as plain data, so the renderers stay pure and the routes only send it.

export interface FaceResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

export function json(status: number, body: unknown, headers: Record<string, string> = {}): FaceResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body };
}

/** `When` on a wire that carries one string: an instant as given, a local date-time, or a date alone. */
export function whenText(when: { at: string | null; localDateTime: string | null; localDate: string | null }): string | null {
  return when.at ?? when.localDateTime ?? when.localDate;
}
