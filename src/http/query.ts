// Query strings as JSON:API clients send them: brackets raw (`page[number]=2`) or percent-encoded
// (`page%5Bnumber%5D=2`), nested (`filter[created_at][start]`), arrays (`port_of_lading[]=USLAX`), and
// comma lists raw or as `%2C` (kept as one string; the handler splits them).
import qs from 'qs';

export function parseQuery(query: string): Record<string, unknown> {
  return qs.parse(query, { depth: 4, arrayLimit: 100, parameterLimit: 200, allowPrototypes: false });
}
