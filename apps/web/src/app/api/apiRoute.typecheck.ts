import { DeviceSchema } from "@cellfleet/contract";
import { apiDownload, apiRequest, apiStream, apiUpload } from "./http";

// Compiled by `npm run typecheck`, never run or bundled: each `@ts-expect-error` line below must be
// a compile error, or the check fails ("unused directive"). Together they prove the typed client
// refuses a path, a param, a body or an answer the contract's route map does not name.

export async function routeMapRefusals(file: File): Promise<void> {
  // The well-formed calls compile.
  await apiRequest("POST /api/device/{dev_id}/edit", { params: { dev_id: "1" }, body: { tags: ["a"] } });
  await apiRequest("GET /api/health");
  const device = await apiRequest("POST /api/devices/new", { body: { ident: "R1" }, schema: DeviceSchema });
  device.ident satisfies string;

  // @ts-expect-error a path the map does not have
  await apiRequest("POST /api/device/{dev_id}/nothing", { params: { dev_id: "1" } });
  // @ts-expect-error the method is part of the route: there is no GET of a device
  await apiRequest("GET /api/device/{dev_id}", { params: { dev_id: "1" } });
  // @ts-expect-error a path parameter is required
  await apiRequest("POST /api/device/{dev_id}");
  // @ts-expect-error a misspelt path parameter
  await apiRequest("POST /api/device/{dev_id}", { params: { id: "1" } });
  // @ts-expect-error a route without parameters takes none
  await apiRequest("POST /api/devices/new", { params: { dev_id: "1" }, body: { ident: "R1" } });
  // @ts-expect-error a body field the route does not take
  await apiRequest("POST /api/device/{dev_id}/edit", { params: { dev_id: "1" }, body: { colour: "red" } });
  // @ts-expect-error a body field of the wrong type
  await apiRequest("POST /api/device/{dev_id}/edit", { params: { dev_id: "1" }, body: { tags: "a" } });
  // @ts-expect-error a required body is missing
  await apiRequest("POST /api/devices/new", {});
  // @ts-expect-error the answer has no such field
  (await apiRequest("POST /api/devices/new", { body: { ident: "R1" } })).colour;
  // @ts-expect-error a JSON call is not a stream
  await apiStream("POST /api/devices/new", { body: { ident: "R1" }, onLine: () => undefined });
  // @ts-expect-error a stream's lines have the route's shape
  await apiStream("POST /api/events/all", { onLine: (line: { colour: string }) => line });
  // @ts-expect-error only file answers download
  await apiDownload("POST /api/devices/new", "x.bin");
  // @ts-expect-error an upload route needs its parameter
  await apiUpload("POST /api/file/{kind}", file);
}
