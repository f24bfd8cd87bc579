// The container image's HEALTHCHECK: exits 0 when this container's Tidemark process answers GET /readyz with 200
// (the database answers and every migration is applied), 1 otherwise: not listening, starting (503), migrating,
// the database gone, or no answer within 4 s. Plain Node (the slim image has no curl); reads the same PORT and
// TIDEMARK_HOST as the service, a wildcard listen address meaning this host's loopback.
const port = process.env.PORT || '8080';
const listen = process.env.TIDEMARK_HOST || '127.0.0.1';
const host = listen === '0.0.0.0' ? '127.0.0.1' : listen === '::' ? '[::1]' : listen.includes(':') ? `[${listen}]` : listen;
try {
  const res = await fetch(`http://${host}:${port}/readyz`, { signal: AbortSignal.timeout(4000) });
  const body = await res.text();
  if (res.status !== 200) console.error(`not ready: ${res.status} ${body}`);
  process.exit(res.status === 200 ? 0 : 1);
} catch (err) {
  // fetch says only "fetch failed"; the reason (ECONNREFUSED, a timeout) is its cause.
  const reason = err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(err);
  console.error(`not ready: ${reason}`);
  process.exit(1);
}
