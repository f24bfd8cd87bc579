// The sandbox rail API over HTTP, and nothing else: GET {baseUrl}/{railroad SCAC}/containers/{number}.
import type { FetchContext } from '../../contract.js';
import { HttpClient } from '../../http.js';

export interface RailClientOptions {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch | undefined;
}

export class RailClient {
  readonly #base: string;
  readonly #http: HttpClient;

  constructor(options: RailClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#http = new HttpClient({ label: 'Sandbox rail', timeoutMs: options.timeoutMs, fetch: options.fetch });
  }

  async container(railroadScac: string, containerNumber: string, ctx: FetchContext): Promise<unknown> {
    const url = new URL(`${this.#base}/${encodeURIComponent(railroadScac)}/containers/${encodeURIComponent(containerNumber)}`);
    const { json } = await this.#http.getJson(url, ctx);
    return json;
  }
}
