# syntax=docker/dockerfile:1
# Console: the BFF serving the built client. With no BACKOFFICE_URL / ORY_SDK_URL it also runs the
# embedded local stack, persisting to DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL).

# Node 22 LTS: the OAuth2 server (oidc-provider 9) supports LTS releases from 22 on; Node 20 left LTS in 2026.
FROM node:22-bookworm-slim AS base
# The lockfile is written by npm 11; npm 10 (bundled with node:22) cannot install Vite 8 from it.
RUN npm install -g npm@11.19.1 && npm cache clean --force
WORKDIR /app

FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY tsconfig.json ./
COPY shared ./shared
COPY server ./server
COPY localstack ./localstack
COPY client ./client
COPY scripts ./scripts
RUN npm run build

FROM base AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    LOCAL_MAILBOX=false \
    PORT=3000 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/client/dist ./client/dist
COPY --from=build --chown=root:root /app/client/dist-ssr ./client/dist-ssr
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server/main.js"]
