# Loupe in a container: the server as `npm start` runs it, listening on all interfaces inside the container.
# The OpenCode data dir is mounted at /data/opencode (see docker-compose.yml).
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/demo/package.json packages/demo/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 TURBO_TELEMETRY_DISABLED=1
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx turbo run build --filter=@loupe/web --filter=@loupe/api

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
# As scripts/start.mjs starts it: the api's JavaScript build with tools/server-launch.mjs's
# environment and flags (apps/api/test/server-launch.test.ts checks that the two agree).
ENV XDG_DATA_HOME=/data LOUPE_HOME=/data/loupe LOUPE_HOST=0.0.0.0 LOUPE_PORT=4455 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_ARENA_MAX=2
EXPOSE 4455
CMD ["node", "--max-semi-space-size=4", "apps/api/dist/main.mjs", "--no-open"]
