// The sandbox terminal API over HTTP, and nothing else: GET {baseUrl}/{facility}/containers/{number}.
import type { FetchContext } from '../../contract.js';
import { HttpClient } from '../../http.js';

export interface TerminalClientOptions {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch | undefined;
}

export class TerminalClient {
  readonly #base: string;
  readonly #http: HttpClient;

  constructor(options: TerminalClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#http = new HttpClient({ label: 'Sandbox terminal', timeoutMs: options.timeoutMs, fetch: options.fetch });
  }

  /** The terminal's record of one container, as received (404 → `not_found`, see http.ts for the rest). */
  async container(facilityCode: string, containerNumber: string, ctx: FetchContext): Promise<unknown> {
    const url = new URL(`${this.#base}/${encodeURIComponent(facilityCode)}/containers/${encodeURIComponent(containerNumber)}`);
    const { json } = await this.#http.getJson(url, ctx);
    return json;
  }
}
