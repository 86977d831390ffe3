#!/bin/sh
# First start of an empty data volume (local and dev): the owner role and the database it
# owns, as in deploy/README.md step 1. The migration plan runs later, as this owner.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v owner_password="$GENJI_OWNER_PASSWORD" <<'SQL'
CREATE ROLE genjishimada LOGIN CREATEROLE NOSUPERUSER NOCREATEDB NOREPLICATION NOBYPASSRLS
    PASSWORD :'owner_password';
CREATE DATABASE genjishimada OWNER genjishimada;
SQL
