import { describe, expect, it } from "vitest";
import { deleteEach } from "./deleteEach";

describe("deleteEach", () => {
  it("deletes every id in order and goes on past a refusal, reporting it", async () => {
    const called: string[] = [];
    const refusal = new Error("SYSTEM_COMMAND_TYPE");
    const result = await deleteEach(["a", "sys", "b"], async (id) => {
      called.push(id);
      if (id === "sys") throw refusal;
    });
    expect(called).toEqual(["a", "sys", "b"]);
    expect(result).toEqual({ deleted: ["a", "b"], failed: [{ id: "sys", error: refusal }] });
  });
});
