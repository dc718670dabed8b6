import { describe, expect, it } from "vitest";
import { infoPreview } from "./LogInfo";

describe("log info preview", () => {
  it("lists keys and values on one line", () => {
    expect(infoPreview({ username: "root", password: "***" })).toBe("username: root, password: ***");
  });

  it("shows non-text values as JSON", () => {
    expect(infoPreview({ role: 4, tags: ["a"] })).toBe('role: 4, tags: ["a"]');
  });

  it("cuts a long preview with an ellipsis", () => {
    const text = infoPreview({ note: "x".repeat(100) }, 20);
    expect(text).toHaveLength(20);
    expect(text.endsWith("…")).toBe(true);
  });
});
