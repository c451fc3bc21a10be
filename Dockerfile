# Plainverse: a multi-stage image. The build stage compiles (and builds the native lock
# addon with the full toolchain) and prepares the seed as `make build` does (the seed bundle,
# and the seeded embedded template that a first start copies); the runtime stage holds only
# what the server reads, runs as the unprivileged `node` user and reports its readiness to
# the container runtime.
#   docker build -t plainverse .
#   docker run -p 8080:8080 -v plainverse-data:/var/lib/plainverse plainverse
# See compose.yaml for PostgreSQL, Redis and two instances behind a load balancer.

FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY . .
RUN node_modules/.bin/tsx scripts/generate.ts \
 && node_modules/.bin/tsc -p scripts/tsconfig.build.json \
 && node dist/scripts/server-bundle.js \
 && node dist/scripts/pglite-template.js \
 && node --max-semi-space-size=8 dist/scripts/seed-bundle.js \
 && node --max-semi-space-size=8 dist/scripts/seeded-template.js \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/plainverse
WORKDIR /app
COPY --from=build /app/package.json /app/openapi.yaml ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/generated ./generated
COPY --from=build /app/db ./db
# DATA_DIR holds the embedded database (when DATABASE_URL is unset), the usage journal and the
# admin socket: the only place the server writes.
RUN mkdir -p /var/lib/plainverse && chown node:node /var/lib/plainverse
VOLUME ["/var/lib/plainverse"]
USER node
EXPOSE 8080
# /readyz answers 200 once the database is connected and seeded and the counters answer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=180s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "dist/server/server.js"]
