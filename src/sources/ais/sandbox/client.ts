// The sandbox AIS API over HTTP, and nothing else: GET {baseUrl}/vessels/{imo}.
import type { FetchContext } from '../../contract.js';
import { HttpClient } from '../../http.js';

export interface AisClientOptions {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch | undefined;
}

export class AisClient {
  readonly #base: string;
  readonly #http: HttpClient;

  constructor(options: AisClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#http = new HttpClient({ label: 'Sandbox AIS', timeoutMs: options.timeoutMs, fetch: options.fetch });
  }

  /** The vessel's recent track; the window is the feed's default (the last 24 hours of world time). */
  async vessel(imo: string, ctx: FetchContext): Promise<unknown> {
    const url = new URL(`${this.#base}/vessels/${encodeURIComponent(imo)}`);
    const { json } = await this.#http.getJson(url, ctx);
    return json;
  }
}
