import { createServer, type Server } from "node:http";
import { crc32, deflateSync } from "node:zlib";

// A tile server on loopback for the map's browser test (issue 31): a MapLibre style JSON with one
// raster source whose every tile is the same small PNG (a pale ground with a grid), so the test sees
// tiles drawn without reaching any network.

/** The port the test's tile server listens on; the server's MAP_STYLE_URL points at it (playwright.config.ts). */
export const TILE_PORT = Number(process.env.E2E_PORT ?? 3199) + 900;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 256 px RGB tile: a pale green ground, a darker line every 32 px. */
function tilePng(): Buffer {
  const size = 256;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const isLine = x % 32 === 0 || y % 32 === 0;
      row.set(isLine ? [150, 180, 160] : [214, 232, 214], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Starts the tile server; `tiles()` counts the tiles it served. */
export async function startTileServer(): Promise<{ server: Server; tiles: () => number }> {
  const png = tilePng();
  let served = 0;
  const style = {
    version: 8,
    sources: {
      ground: {
        type: "raster",
        tiles: [`http://127.0.0.1:${TILE_PORT}/tiles/{z}/{x}/{y}.png`],
        tileSize: 256,
        attribution: "Test tiles",
      },
    },
    layers: [{ id: "ground", type: "raster", source: "ground" }],
  };
  const server = createServer((request, response) => {
    response.setHeader("Access-Control-Allow-Origin", "*");
    if (request.url === "/style.json") {
      response.setHeader("Content-Type", "application/json");
      response.end(JSON.stringify(style));
    } else if (request.url?.startsWith("/tiles/")) {
      served++;
      response.setHeader("Content-Type", "image/png");
      response.end(png);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(TILE_PORT, "127.0.0.1", resolve));
  return { server, tiles: () => served };
}
