import type { RecordingLine } from "@cellfleet/contract";

/** One output of a recording: when it was printed (seconds from the start) and what. */
export interface RecordedOutput {
  at: number;
  text: string;
}

/** A recording read for replay: the terminal's size and its outputs in order. */
export interface Recording {
  width: number;
  height: number;
  outputs: RecordedOutput[];
}

/** Quiet spells longer than this replay as this long (asciinema's idle_time_limit). */
export const IDLE_LIMIT_SECONDS = 2;

/** The recording's lines (asciicast v2) as a replay: outputs only, quiet spells capped. */
export function readRecording(lines: readonly RecordingLine[]): Recording {
  let width = 80;
  let height = 24;
  const outputs: RecordedOutput[] = [];
  let last = 0;
  let shifted = 0;
  for (const line of lines) {
    if (!Array.isArray(line)) {
      width = line.width;
      height = line.height;
      continue;
    }
    const [seconds, kind, text] = line;
    if (kind !== "o") continue;
    shifted += Math.min(Math.max(0, seconds - last), IDLE_LIMIT_SECONDS);
    last = seconds;
    outputs.push({ at: shifted, text });
  }
  return { width, height, outputs };
}
