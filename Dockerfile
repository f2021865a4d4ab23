# One image for every process type: the command picks it (worker | watch <folder> | schedule).
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
# Folders the watcher and the scheduler use when mounted; owned by the unprivileged user the processes run as.
RUN mkdir -p /data/watch /data/exports /data/reports && chown -R node:node /data
USER node
# node runs as PID 1 and handles SIGTERM/SIGINT itself (graceful shutdown): no init wrapper is needed.
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["worker"]
