# The runner (live-bench) as a container, used as an agent or as the headless lead.
# Build from the repository's root (BuildKit reads runner.Dockerfile.dockerignore beside this file):
#   docker build -f deploy/runner.Dockerfile -t live-bench:0.1.0 .
# Run:  docker run --rm live-bench:0.1.0 --agent http://hub:5180/control --session <code> --once
#       docker run --rm live-bench:0.1.0 --lead --agents 3 --endpoint http://hub:5180/signalrbench
# Not built here (no container runtime was reachable when it was written): see docs/kubernetes.md.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build -c vite.cli.config.ts --logLevel warn

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# The runner needs only its dependencies at run time (@microsoft/signalr brings ws and eventsource).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist-cli ./dist-cli
COPY bin ./bin
# Many connections need many file descriptors: raise the pod's or container's limit (ulimit -n),
# the runner refuses a run its limits cannot hold and says what to type.
# Result files (--json, --html) go where the runner may write: /results, a volume to mount.
RUN mkdir /results && chown node /results
USER node
ENTRYPOINT ["node", "bin/live-bench.js"]
CMD ["--help"]
