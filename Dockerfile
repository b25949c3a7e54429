# ibwatch collector + dashboard for a real fabric (source=diags): one container per fabric, on a
# host attached to that fabric. Build: docker build -t ibwatch .
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends infiniband-diags python3 make g++ \
 && rm -rf /var/lib/apt/lists/* \
 && npm install -g pnpm@12.4.2
WORKDIR /app
COPY . .
# The official node image keeps its headers under /usr/local (Debian's node under /usr).
RUN npm_config_nodedir=/usr/local pnpm install --frozen-lockfile && pnpm build
# Run as an unprivileged user. The umad devices (/dev/infiniband/umad*, issm*) are root-only by
# default: give this user's group access on the host (udev rule GROUP="rdma", MODE="0660") and
# pass the group with `group_add`, instead of running the container as root.
RUN useradd --system --uid 10001 --create-home ibwatch && mkdir -p /data && chown ibwatch /data
USER ibwatch
ENV IBWATCH_HOST=0.0.0.0 IBWATCH_DB=/data/ibwatch.db IBWATCH_SOURCE=diags
EXPOSE 8080
CMD ["node", "--import", "tsx", "apps/collector/src/server.ts"]
