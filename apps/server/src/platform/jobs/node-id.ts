import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

/** This process's id in locked_by: host and pid for a person reading the table, a random part so a restart differs. */
export function createNodeId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}
