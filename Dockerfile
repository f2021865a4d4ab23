# One image for every process type: the command picks it (worker | watch <folder> | schedule | serve | sandbox).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY jobs ./jobs
COPY bench ./bench
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would compile again, and the compiler is a dev dependency.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
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
