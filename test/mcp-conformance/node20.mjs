// Preload (`node --import`) that lets @modelcontextprotocol/conformance 0.1.16 start on Node 20: its bundle imports
// `globSync` from 'fs', which Node adds in 22, so on Node 20 the import fails before any command runs. Only its
// `tier-check` command calls globSync; `server` and `list` never do. On Node 22+ this registers nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  const shim = `import fs from 'node:fs';
export * from 'node:fs';
export default fs;
export function globSync() { throw new Error('fs.globSync needs Node 22 (conformance tier-check)'); }`;
  const hooks = `const SHIM = ${JSON.stringify(`data:text/javascript,${encodeURIComponent(shim)}`)};
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
