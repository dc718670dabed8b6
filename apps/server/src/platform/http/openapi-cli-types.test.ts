import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CLI_TYPES_FILE, renderCliTypes } from "../../test/cli-types";

// The command-line tool (packages/cli) is typed from the OpenAPI description this server serves;
// its checked-in types must be what the description gives now, so a changed route shows up in the
// tool's typecheck. On a failure: `npm run cli-types -w apps/server`, then typecheck packages/cli.
it("packages/cli/src/api.d.ts is generated from the served OpenAPI description", async () => {
  const expected = await renderCliTypes();
  expect(readFileSync(CLI_TYPES_FILE, "utf8") === expected, "run `npm run cli-types -w apps/server`").toBe(
    true,
  );
}, 120_000);
