# The Tidemark service image: one image for every role (api, worker, sandbox) and for the one-shot commands
# (`tidemark migrate`, `tidemark keys create`, …). docs/operations.md, "Deploying with containers", says how to
# run it; compose.yaml runs the documented production topology with it.
#
# Not built in CI (no container engine there): test/deploy/static.test.ts parses this file and checks its shape,
# and test/e2e/topology.test.ts runs the same command with compose.yaml's environment as plain processes.
#
# Both stages use the same exact Node release: an LTS line that CI smokes the built service on (.ci/run,
# SMOKE_NODE_MAJORS). Move it by changing both FROM lines together.

# ---- build: install everything, compile dist/ and dist/web (the `prepare` script), then drop dev dependencies.
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
# The whole context (.dockerignore keeps out node_modules, dist, data, tests and local secrets): `npm ci` runs the
# `prepare` script, which needs the sources (src/, web/, scripts/, tsconfig*.json). The npm cache is a BuildKit
# cache mount, so a rebuild after a source change downloads nothing again.
COPY . .
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund \
 && test -f dist/main.js && test -f dist/web/index.html \
 && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: the compiled service and its production dependencies, run as the unprivileged `node` user.
FROM node:24.21.0-bookworm-slim AS runtime
ENV NODE_ENV=production \
    TIDEMARK_HOST=0.0.0.0 \
    PORT=8080 \
    TIDEMARK_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY LICENSE NOTICE ./
COPY deploy/healthcheck.mjs ./deploy/healthcheck.mjs
# The PGlite data directory of a single-container installation (no DATABASE_URL); unused with a PostgreSQL server.
# Owned by `node`, the only place the service writes to: the application files above are root's (COPY's default),
# read-only to the service.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# Ready = the database answers and every migration is applied (GET /readyz). Processes without the api or sandbox
# role serve no HTTP: compose.yaml disables this check for its workers (docs/operations.md says why).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "deploy/healthcheck.mjs"]
# The roles come from TIDEMARK_ROLES (all three when unset: a one-container trial); everything else from the
# environment as well (docs/operations.md, "Configuration"). Node is PID 1 and handles SIGTERM itself: a stop
# finishes within TIDEMARK_STOP_TIMEOUT (10 s by default) and exits 0.
ENTRYPOINT ["node", "bin/tidemark.js"]
CMD ["start"]
