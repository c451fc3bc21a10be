# Plainverse: `make run` to start the server, `make test` to run every check.
# Every target installs what it needs from package-lock.json first.

BIN := node_modules/.bin
export NODE_OPTIONS ?= --enable-source-maps

.PHONY: all install generate build run oidc migrate seed test typecheck lint format bench clean

all: build

install: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## generate: openapi.yaml -> generated/ (types, route schemas, JSON copy); src/errors.ts -> README's error table
generate: install
	$(BIN)/tsx scripts/generate.ts
	$(BIN)/tsx scripts/readme-errors.ts

## build: compile TypeScript to dist/; bundle the server (dist/server, scripts/server-bundle.ts); initialize the embedded database template (dist/pglite-template); prepare
## the seed's verse content (dist/seed-bundle) and the migrated and seeded embedded template (dist/pglite-seeded)
## that a first start copies (the last two are skipped when their sources have not changed)
build: generate
	$(BIN)/tsc -p scripts/tsconfig.build.json
	node dist/scripts/server-bundle.js
	node dist/scripts/pglite-template.js
	node --max-semi-space-size=8 dist/scripts/seed-bundle.js
	node --max-semi-space-size=8 dist/scripts/seeded-template.js

## migrate / seed: prepare the database (the server also does both at start)
migrate: build
	node dist/src/cli/main.js db migrate

seed: build
	node dist/src/cli/main.js db seed

## run: install, generate, build, migrate, seed and start the server (embedded PGlite by default), with the
## Node.js options of SERVER_NODE_FLAGS (src/infra/heap.ts)
run: seed
	node --max-semi-space-size=8 dist/server/server.js

## oidc: a local OpenID Connect provider for the dashboard (development only; prints the settings for `make run`)
oidc: install
	$(BIN)/tsx scripts/local-oidc.ts

## test: contract checks, type check and every suite (PostgreSQL/Redis suites when their URLs are set)
test: install
	bash scripts/run-tests.sh

typecheck: install
	$(BIN)/tsc --noEmit -p .

## lint: typescript-eslint with the layering rules, the formatter's check, the dependency check
## (make test runs the same three through test/contract/lint.test.ts)
lint: install
	$(BIN)/eslint .
	$(BIN)/prettier --check .
	$(BIN)/tsx scripts/check-dependencies.ts

## format: rewrite every source file in the house format (.prettierrc.json)
format: install
	$(BIN)/prettier --write .

## bench: every target (bare node:http, bare Fastify, the real server's endpoints) under wrk, alternating rounds
bench: build
	node dist/scripts/bench.js

clean:
	rm -rf dist var/test .tap
