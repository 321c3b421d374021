#!/bin/sh
# First on PATH in the unit tests (vitest.config.ts, project "unit") under the names of the heavy
# tools: a unit test file that runs one fails here, saying where the file belongs.
echo "$(basename "$0") is not available to the unit tests (npm run test:unit): a test file that needs the Pulumi engine, Go, Maven, Java or a browser belongs in the heavy tier: name it <name>.engine.test.ts (see docs/testing.md)" >&2
exit 127
