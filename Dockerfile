# Leadstage production image: the compiled server (dist/), the built admin (admin/dist) and the e-mail templates,
# on Node 24 LTS with production dependencies only, running as the unprivileged `node` user.
#   docker build -t leadstage .
#   docker run -p 3000:3000 -v leadstage-data:/app/data leadstage     (PGlite; set DATABASE_URL for PostgreSQL)
# CLI in the image: node dist/scripts/user-create.js …, node dist/scripts/db.js migrate, node dist/scripts/setup.js

FROM docker.io/library/node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM docker.io/library/node:24-bookworm-slim AS runtime
# MALLOC_ARENA_MAX: at most 2 malloc arenas for the server's threads (as npm start sets it; README, Operations).
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Code stays root-owned (read-only to the app); only DATA_DIR is the app's to write.
COPY --from=build /app/dist ./dist
COPY --from=build /app/admin/dist ./admin/dist
COPY emails ./emails
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# No curl in the slim image: node's own fetch asks the server whether it can take traffic.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/api/server.js"]
