import type { FileDto } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { filterAndSortFiles } from "./fileRows";

function file(name: string, size: number, date: number, user: string | null = "admin"): FileDto {
  return {
    _id: name,
    filename: name,
    file_type: "firmware",
    size,
    sha256: `${name.length}`.repeat(64).slice(0, 64),
    create_date: date,
    status: "completed",
    metadata: { user_id: user, user_name: user, device_id: null, command_id: null, execution_id: null },
    repeats: 0,
    repeat_date: null,
  };
}

const files = [file("b.bin", 300, 2), file("A.bin", 100, 3), file("c.bin", 200, 1, "olga")];

describe("filterAndSortFiles", () => {
  it("answers the newest first until someone sorts", () => {
    expect(filterAndSortFiles(files, "", null).map((f) => f.filename)).toEqual(["A.bin", "b.bin", "c.bin"]);
  });

  it("sorts by name case aside, by size and by uploader, either way", () => {
    const names = (field: string, direction: "asc" | "desc") =>
      filterAndSortFiles(files, "", { field, direction }).map((f) => f.filename);
    expect(names("filename", "asc")).toEqual(["A.bin", "b.bin", "c.bin"]);
    expect(names("size", "desc")).toEqual(["b.bin", "c.bin", "A.bin"]);
    expect(names("user", "desc")).toEqual(["c.bin", "A.bin", "b.bin"]);
  });

  it("searches names and uploaders case aside", () => {
    expect(filterAndSortFiles(files, " OLGA ", null).map((f) => f.filename)).toEqual(["c.bin"]);
    expect(filterAndSortFiles(files, "a.B", null).map((f) => f.filename)).toEqual(["A.bin"]);
    expect(filterAndSortFiles(files, "zzz", null)).toEqual([]);
  });
});
