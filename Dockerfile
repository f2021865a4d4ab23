# One image for every process type: the command picks it (worker | watch <folder> | schedule | serve | sandbox).
# The current Node LTS. Needs BuildKit (Docker 23 or later, or `docker buildx`, as compose uses) for the cache mounts.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm's download cache is a cache mount: kept between builds (a rebuild downloads only what changed), never in
# the image, so no `npm cache clean` is needed.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts
COPY tsconfig.json ./
# Only what the image runs. tsconfig.json also includes bench/ and scripts/ (tools run from a checkout, and
# bench/ imports test/): here their globs match nothing and tsc compiles src/ and jobs/ alone.
COPY src ./src
COPY jobs ./jobs
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would compile again, and the compiler is a dev dependency.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts
COPY --from=build /app/dist ./dist
COPY examples ./examples
# Folders the watcher, the scheduler and the console use when mounted; owned by the unprivileged user (uid 1000)
# the processes run as. Host folders mounted over them must be writable by uid 1000 (compose's `folders` service
# sees to it).
RUN mkdir -p /data/watch /data/exports /data/reports /data/console && chown -R node:node /data
USER node
# 8080: the console (`serve`); 9464: /metrics and /healthz of any process started with --metrics-port 9464.
EXPOSE 8080 9464
# node runs as PID 1 and handles SIGTERM/SIGINT itself (graceful shutdown): no init wrapper is needed.
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["worker"]
