# The two commands a new user needs (README): `make site` and `make test`.
SWIFT ?= swift
SITEGEN_DEBUG = .build/debug/sitegen

.PHONY: deps site test check-html clean

deps:
	@scripts/install-deps.sh

## Build the sample site into Output/ with an optimised build of sitegen.
site: deps
	$(SWIFT) build -c release --product sitegen
	.build/release/sitegen build

## The W3C checker and an independent calendar parser over the sample site, then the Swift tests.
test: deps
	@scripts/install-deps.sh --checks
	$(SWIFT) build --build-tests
	$(SITEGEN_DEBUG) build --output .build/sample-site
	scripts/check-site.sh . .build/sample-site
	$(SWIFT) test --skip-build

clean:
	rm -rf .build Output
