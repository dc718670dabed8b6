import type { DeviceImportPlan, DeviceImportResult } from "@cellfleet/contract";
import { MULTIPART_CONTENT_TYPE, multipartBody } from "../../test/multipart";
import type { TestApp } from "../../test/test-app";

/** A file to import: its name and bytes. */
export interface ImportFile {
  name: string;
  bytes: Buffer;
}

/** A CSV file of these lines. */
export function csvFile(lines: readonly string[], name = "routers.csv"): ImportFile {
  return { name, bytes: Buffer.from(`${lines.join("\r\n")}\r\n`) };
}

/** An XLSX file (written by exceljs, as a spreadsheet program would) of these rows on its first sheet. */
export async function xlsxFile(
  rows: readonly (readonly (string | number)[])[],
  name = "routers.xlsx",
): Promise<ImportFile> {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Routers");
  for (const row of rows) sheet.addRow([...row]);
  return { name, bytes: Buffer.from(await workbook.xlsx.writeBuffer()) };
}

/** POSTs the file (or, without one, a multipart body with no file part) to an import route. */
export async function postImport(t: TestApp, token: string | null, url: string, file?: ImportFile) {
  const response = await t.app.inject({
    method: "POST",
    url,
    headers: { ...(token ? { token } : {}), "content-type": MULTIPART_CONTENT_TYPE },
    payload: multipartBody([
      file ? { filename: file.name, bytes: file.bytes } : { field: "note", bytes: Buffer.from("x") },
    ]),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

/** The dry run of a file, which must answer 200. */
export async function checkImport(t: TestApp, token: string, file: ImportFile): Promise<DeviceImportPlan> {
  const { status, body } = await postImport(t, token, "/api/devices/import/check", file);
  if (status !== 200) throw new Error(`check answered ${status}: ${JSON.stringify(body)}`);
  return body as unknown as DeviceImportPlan;
}

/** Applies a file with the plan of its dry run. */
export async function applyImport(t: TestApp, token: string, file: ImportFile, plan: string) {
  const answer = await postImport(t, token, `/api/devices/import/${plan}`, file);
  return { status: answer.status, body: answer.body as unknown as DeviceImportResult & { code?: string } };
}
