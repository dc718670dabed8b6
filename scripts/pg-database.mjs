// Creates or drops a PostgreSQL database: node scripts/pg-database.mjs create|drop <admin-url> <name>
import pg from "pg";

const [action, adminUrl, name] = process.argv.slice(2);
if (!["create", "drop"].includes(action) || !adminUrl || !/^[a-z0-9_]+$/.test(name ?? "")) {
  console.error("usage: node scripts/pg-database.mjs create|drop <admin-url> <name>");
  process.exit(2);
}
const client = new pg.Client({ connectionString: adminUrl });
await client.connect();
try {
  if (action === "create") await client.query(`CREATE DATABASE ${name}`);
  else await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  console.log(`${action === "create" ? "created" : "dropped"} database ${name}`);
} finally {
  await client.end();
}
