import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

// The embedded broker's port is what every router was told to connect to, so it must not change
// between starts (issue 27): a first start that found the default port taken and moved to a free one
// remembers that port in DATA_DIR, and every later start listens there again or refuses to start.

/** The file under DATA_DIR that keeps the embedded broker's port across starts. */
export const MQTT_PORT_FILE = "mqtt-port";

/** The port a previous start listened on, or null when none was remembered (or the file is not a port). */
export async function readRememberedPort(file: string): Promise<number | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const port = Number(text.trim());
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/** Remembers the port routers are told, written whole (a crash mid-write leaves the old file). */
export async function rememberPort(file: string, port: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${port}\n`);
  await rename(temporary, file);
}
