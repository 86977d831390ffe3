#!/usr/bin/env bash
# Deploys one environment in the required order (deploy/README.md):
#   deploy/deploy.sh local|dev|prod
# 1. (local, dev) start PostgreSQL and wait until it is healthy;
# 2. stop the running API and bot, whose workers drain and give back what they had not
#    finished, so that no worker of the previous release calls a function the plan changes;
# 3. apply the migration plan as the API's identity, the owner role;
# 4. give the worker login its password (QUEUE_DATABASE_PASSWORD), as the owner;
# 5. start the API (HTTP and the API worker) and wait until its health check passes;
# 6. start the bot (its worker logs in as genjishimada_queue_worker) and wait likewise.
# Settings come from deploy/env/<env>.env (GENJI_ENV_FILE overrides the path), secrets from this
# command's environment (see deploy/env/<env>.env.example). COMPOSE names the Compose command
# (default `docker compose`).
set -euo pipefail

environment=${1:-}
case "$environment" in
    local | dev | prod) ;;
    *)
        echo "usage: $0 local|dev|prod" >&2
        exit 64
        ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
env_file=${GENJI_ENV_FILE:-"$here/env/$environment.env"}
if [[ ! -f "$env_file" ]]; then
    echo "$env_file is missing: copy deploy/env/$environment.env.example and fill it in" >&2
    exit 66
fi
read -r -a compose_command <<<"${COMPOSE:-docker compose}"

compose() {
    "${compose_command[@]}" --project-name "genjishimada-$environment" --env-file "$env_file" \
        -f "$here/compose.yml" -f "$here/compose.$environment.yml" "$@"
}

compose config --quiet
if [[ "$environment" == local ]]; then
    compose build
fi
if [[ "$environment" != prod ]]; then
    compose up --detach --wait db
fi
compose stop bot api
compose run --rm --no-deps api python -m genji_api.migrate
compose run --rm --no-deps -e QUEUE_DATABASE_PASSWORD api python -m genji_api.worker_password
compose up --detach --wait api
compose up --detach --wait bot
