import { describe, expect, it } from "vitest";
import {
  deviceFileName,
  fileExtension,
  fileKindFor,
  fileTypeAccepts,
  isFileDeletable,
  monitorVariableOptions,
  parseDictionary,
  plainFileName,
  SYSTEM_FILE_OWNER,
  UPLOAD_MAX_BYTES,
  validateCommonUpload,
  validateConsent,
  validateDictionaryEntries,
  validateDictionaryFile,
  validateFileType,
  validateMonitorVariable,
  validateRole,
  validateUpload,
} from "./index";

describe("validateUpload", () => {
  it("needs a file with a name", () => {
    expect(validateUpload(null)).toBe("noFile");
    expect(validateUpload(undefined)).toBe("noFile");
    expect(validateUpload({ name: " ", size: 10 })).toBe("noFile");
  });

  it("needs a size above 0", () => {
    expect(validateUpload({ name: "a.bin", size: 0 })).toBe("emptyFile");
    expect(validateUpload({ name: "a.bin", size: Number.NaN })).toBe("emptyFile");
    expect(validateUpload({ name: "a.bin", size: 1 })).toBeNull();
  });

  it("rejects 25 MB or more as too large", () => {
    expect(UPLOAD_MAX_BYTES).toBe(25 * 1024 * 1024);
    expect(validateUpload({ name: "fw.bin", size: UPLOAD_MAX_BYTES - 1 })).toBeNull();
    expect(validateUpload({ name: "fw.bin", size: UPLOAD_MAX_BYTES })).toBe("tooLarge");
    expect(validateUpload({ name: "fw.bin", size: UPLOAD_MAX_BYTES + 1 })).toBe("tooLarge");
  });

  it("checks the extension when allowed extensions are given", () => {
    expect(validateUpload({ name: "fw.BIN", size: 5 }, { allowedExtensions: ["bin"] })).toBeNull();
    expect(validateUpload({ name: "fw.ipk", size: 5 }, { allowedExtensions: [".bin"] })).toBe(
      "invalidFileType",
    );
    expect(validateUpload({ name: "anything.exe", size: 5 })).toBeNull();
  });
});

describe("file kinds and extensions", () => {
  it("answers firmware for .bin, package for .ipk and file otherwise", () => {
    expect(fileKindFor("router-1.2.3.bin")).toBe("firmware");
    expect(fileKindFor("FW.BIN")).toBe("firmware");
    expect(fileKindFor("luci-app.ipk")).toBe("package");
    expect(fileKindFor("notes.txt")).toBe("file");
    expect(fileKindFor("bin")).toBe("file");
    expect(fileKindFor("archive.bin.gz")).toBe("file");
  });

  it("reads the extension of the last path segment, ignoring dot-files", () => {
    expect(fileExtension("a/b.c/file.TXT")).toBe("txt");
    expect(fileExtension(".bashrc")).toBe("");
    expect(fileExtension("README")).toBe("");
    expect(fileExtension("dir.d/README")).toBe("");
  });

  it("validates a file type against a list", () => {
    expect(validateFileType("list.csv", ["txt", "csv"])).toBeNull();
    expect(validateFileType("list", ["txt", "csv"])).toBe("invalidFileType");
    expect(validateFileType("list.xlsx", ["txt", "csv"])).toBe("invalidFileType");
  });
});

describe("dictionary files", () => {
  it("accepts .txt and .csv only", () => {
    expect(validateDictionaryFile({ name: "words.txt", size: 10 })).toBeNull();
    expect(validateDictionaryFile({ name: "words.CSV", size: 10 })).toBeNull();
    expect(validateDictionaryFile({ name: "words.xlsx", size: 10 })).toBe("invalidFileType");
    expect(validateDictionaryFile({ name: "words.txt", size: UPLOAD_MAX_BYTES })).toBe("tooLarge");
  });

  it("parses one trimmed entry per line, dropping empty lines and repeats, for LF, CRLF and CR", () => {
    expect(parseDictionary("qwerty\r\n  12345 \n\n\rasdf\rqwerty\n")).toEqual(["qwerty", "12345", "asdf"]);
  });

  it("drops a byte-order mark", () => {
    expect(parseDictionary("\uFEFFfirst\nsecond")).toEqual(["first", "second"]);
  });

  it("keeps commas of a .txt line but takes the first column of a .csv", () => {
    expect(parseDictionary("a,b\nc;d", "list.txt")).toEqual(["a,b", "c;d"]);
    expect(parseDictionary("a,b\r\nc;d\n e ,f\n,skip", "list.csv")).toEqual(["a", "c", "e"]);
  });

  it("reads quoted CSV fields with separators and doubled quotes", () => {
    expect(parseDictionary('"hello, world",x\n"say ""hi""";y', "list.csv")).toEqual([
      "hello, world",
      'say "hi"',
    ]);
  });

  it("needs at least one entry", () => {
    expect(validateDictionaryEntries(parseDictionary("\n \r\n"))).toBe("dictionaryEmpty");
    expect(validateDictionaryEntries(["x"])).toBeNull();
  });
});

describe("choices", () => {
  it("needs a role of 1 to 4", () => {
    expect(validateRole(undefined)).toBe("roleRequired");
    expect(validateRole(0)).toBe("roleRequired");
    expect(validateRole(5)).toBe("roleRequired");
    expect(validateRole("2")).toBe("roleRequired");
    for (const role of [1, 2, 3, 4]) expect(validateRole(role)).toBeNull();
  });

  it("needs consent to the personal-data terms", () => {
    expect(validateConsent(true)).toBeNull();
    expect(validateConsent(false)).toBe("consentRequired");
    expect(validateConsent(undefined)).toBe("consentRequired");
  });
});

describe("monitor variables", () => {
  it("turns plain alternatives into select options", () => {
    expect(monitorVariableOptions("hours|days")).toEqual(["hours", "days"]);
    expect(monitorVariableOptions("ru | en")).toEqual(["ru", "en"]);
  });

  it("leaves regular expressions and single values as text inputs", () => {
    expect(monitorVariableOptions("^\\d+$")).toBeNull();
    expect(monitorVariableOptions("(a|b)+")).toBeNull();
    expect(monitorVariableOptions("hours")).toBeNull();
    expect(monitorVariableOptions("a||b")).toBeNull();
  });

  it("matches the whole value against the pattern", () => {
    expect(validateMonitorVariable("12", "\\d+")).toBeNull();
    expect(validateMonitorVariable("12a", "\\d+")).toBe("patternMismatch");
    expect(validateMonitorVariable("days", "hours|days")).toBeNull();
    expect(validateMonitorVariable("weeks", "hours|days")).toBe("patternMismatch");
    expect(validateMonitorVariable("hoursdays", "hours|days")).toBe("patternMismatch");
  });

  it("does not block the form on a broken pattern", () => {
    expect(validateMonitorVariable("x", "(")).toBeNull();
  });
});

describe("common files (spec sections 3 and 5)", () => {
  it("keeps the last segment of a sent name, without control characters", () => {
    expect(plainFileName("C:\\fakepath\\fw.bin")).toBe("fw.bin");
    expect(plainFileName("../../etc/passwd")).toBe("passwd");
    expect(plainFileName(" report\u0000.txt\n")).toBe("report.txt");
    expect(plainFileName("dir/")).toBe("");
  });

  it("fits names to types: .bin firmware, .ipk package, anything else a file, any name a bin", () => {
    expect(fileTypeAccepts("firmware", "RUT9_R_00.07.06.bin")).toBe(true);
    expect(fileTypeAccepts("firmware", "notes.txt")).toBe(false);
    expect(fileTypeAccepts("package", "luci.IPK")).toBe(true);
    expect(fileTypeAccepts("file", "router.conf")).toBe(true);
    expect(fileTypeAccepts("file", "image.bin")).toBe(false);
    expect(fileTypeAccepts("bin", "image.bin")).toBe(true);
    expect(fileTypeAccepts("bin", "run-me")).toBe(true);
  });

  it("checks an upload before it is sent: empty, 25 MB, a long name, the extension", () => {
    expect(validateCommonUpload("firmware", { name: "fw.bin", size: 10 })).toBeNull();
    expect(validateCommonUpload("firmware", { name: "fw.bin", size: 0 })).toBe("emptyFile");
    expect(validateCommonUpload("package", { name: "p.ipk", size: UPLOAD_MAX_BYTES })).toBe("tooLarge");
    // A firmware image may be larger: the server's FIRMWARE_MAX_MB decides (issue 27 item 15).
    expect(validateCommonUpload("firmware", { name: "fw.bin", size: UPLOAD_MAX_BYTES * 4 })).toBeNull();
    expect(validateCommonUpload("firmware", { name: "fw.txt", size: 10 })).toBe("invalidFileType");
    expect(validateCommonUpload("file", { name: `${"x".repeat(256)}.txt`, size: 10 })).toBe("noFile");
    expect(validateCommonUpload("file", null)).toBe("noFile");
  });

  it("names a router's upload by kind, ident and time", () => {
    const at = new Date("2026-01-01T12:34:56.789Z");
    expect(deviceFileName("backup", "RUT955", at)).toBe("backup-RUT955-20260101-123456.tar.gz");
    expect(deviceFileName("journal", "RUT955", at)).toBe("journal-RUT955-20260101-123456.log");
    expect(deviceFileName("report", "RUT955", at)).toBe("report-RUT955-20260101-123456.txt");
  });

  it("never lets a person delete a 'system' file", () => {
    expect(isFileDeletable({ metadata: { user_id: SYSTEM_FILE_OWNER } })).toBe(false);
    expect(isFileDeletable({ metadata: { user_id: null } })).toBe(true);
    expect(isFileDeletable({ metadata: { user_id: "u1" } })).toBe(true);
  });
});
