import { describe, expect, it } from "vitest";
import { IDLE_LIMIT_SECONDS, readRecording } from "./recording";

describe("readRecording", () => {
  it("takes the size from the header, keeps outputs in order and caps quiet spells", () => {
    const replay = readRecording([
      { version: 2, width: 120, height: 40 },
      [0.5, "o", "root@R1:~# "],
      [1.0, "o", "u"],
      [61.0, "o", "Linux R1\r\n"],
      [61.25, "i", "ignored"],
      [61.5, "o", "root@R1:~# "],
    ]);
    expect([replay.width, replay.height]).toEqual([120, 40]);
    expect(replay.outputs.map((output) => output.text).join("")).toBe("root@R1:~# uLinux R1\r\nroot@R1:~# ");
    expect(replay.outputs.map((output) => output.at)).toEqual([0.5, 1.0, 1.0 + IDLE_LIMIT_SECONDS, 3.5]);
  });

  it("reads a recording without a header at 80 by 24", () => {
    expect(readRecording([[0, "o", "x"]])).toMatchObject({ width: 80, height: 24 });
  });
});
