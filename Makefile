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

## Page checks (W3C checker, calendars read back by another parser, links and anchors
## crawled from the home page, XSS over a hostile site), then the Swift tests.
test: deps
	scripts/setup-check-tools.sh
	$(SWIFT) build --build-tests
	$(SITEGEN_DEBUG) build --output .build/sample-site
	scripts/check-links.py .build/sample-site
	scripts/check-site.sh . .build/sample-site
	scripts/check-accessibility.sh .build/sample-site
	scripts/lint-workflows.sh
	scripts/check-hostile.sh $(SITEGEN_DEBUG)
	$(SWIFT) test --skip-build

clean:
	rm -rf .build Output
