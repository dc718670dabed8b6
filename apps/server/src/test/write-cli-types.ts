import { writeFileSync } from "node:fs";
import { CLI_TYPES_FILE, renderCliTypes } from "./cli-types";

// `npm run cli-types -w apps/server`: writes packages/cli/src/api.d.ts from the server's OpenAPI
// description. openapi-cli-types.test.ts fails while the two differ.
writeFileSync(CLI_TYPES_FILE, await renderCliTypes());
console.log(`wrote ${CLI_TYPES_FILE}`);
