import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Theme } from "@mui/material/styles";
import { describe, expect, it } from "vitest";
import { buildTheme } from "../theme";
import type { ThemeMode } from "../themeMode";

// The signed-out pages copy the console theme's values into CSS (ADR 018, round 4): a change to
// theme.ts that theme.css does not follow fails here, naming the variable.

const css = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "theme.css"), "utf8");

function variables(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`theme.css has no ${selector} block`);
  const block = css.slice(start, css.indexOf("\n}", start));
  const found = new Map<string, string>();
  for (const match of block.matchAll(/(--so-[\w-]+):\s*([^;]+);/g)) {
    found.set(match[1] ?? "", (match[2] ?? "").replace(/\s+/g, " ").trim());
  }
  return found;
}

/** A colour as [r, g, b, a], whatever its notation; anything else (a shadow) with its spaces folded. */
function canonical(value: string): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value);
  if (hex?.[1]) {
    const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d) : (hex[1].match(/../g) ?? []);
    return JSON.stringify([...digits.map((d) => Number.parseInt(d, 16)), 1]);
  }
  const rgb = /^rgba?\(([^)]+)\)$/.exec(value);
  if (rgb?.[1]) {
    const parts = rgb[1].split(",").map((part) => Number(part.trim()));
    return JSON.stringify(parts.length === 3 ? [...parts, 1] : parts);
  }
  return value
    .replace(/\s*,\s*/g, ",")
    .replace(/\s+/g, " ")
    .trim();
}

/** What each variable holds in the MUI theme of a mode. */
function expected(theme: Theme, mode: ThemeMode): Record<string, string> {
  const { palette } = theme;
  const alert = (color: "error" | "warning" | "info" | "success") => ({
    [`--so-alert-${color}-icon`]: palette[color].main,
    // A filled alert is the colour's main in light, its dark shade in dark (MUI's Alert).
    [`--so-filled-${color}`]: mode === "dark" ? palette[color].dark : palette[color].main,
  });
  return {
    "--so-font": String(theme.typography.fontFamily),
    "--so-bg": palette.background.default,
    "--so-paper": palette.background.paper,
    "--so-text": palette.text.primary,
    "--so-text2": palette.text.secondary,
    "--so-primary": palette.primary.main,
    "--so-primary-hover": palette.primary.dark,
    "--so-on-primary": palette.primary.contrastText,
    "--so-divider": palette.divider,
    "--so-error": palette.error.main,
    "--so-action": palette.action.active,
    "--so-hover": palette.action.hover,
    "--so-selected": palette.action.selected,
    "--so-disabled": palette.action.disabled,
    "--so-disabled-bg": palette.action.disabledBackground,
    "--so-appbar-bg": mode === "dark" ? palette.background.paper : palette.primary.main,
    ...alert("error"),
    ...alert("warning"),
    ...alert("info"),
    ...alert("success"),
    ...(mode === "light"
      ? Object.fromEntries(
          [1, 2, 3, 4, 6, 8, 16].map((level) => [`--so-shadow-${level}`, theme.shadows[level]]),
        )
      : {}),
  };
}

describe("the signed-out theme.css", () => {
  it.each(["light", "dark"] as const)("holds the console theme's %s values", (mode) => {
    const light = variables(":root");
    const own = mode === "dark" ? variables(':root[data-theme="dark"]') : light;
    const mismatched = Object.entries(expected(buildTheme(mode), mode))
      .map(([name, value]) => ({ name, css: own.get(name) ?? light.get(name) ?? "(missing)", theme: value }))
      .filter((row) => canonical(row.css) !== canonical(String(row.theme)));
    expect(mismatched).toEqual([]);
  });

  it("tells a changed value (the check can fail)", () => {
    expect(canonical("#1565c0")).toBe(canonical("rgb(21, 101, 192)"));
    expect(canonical("#1565c0")).not.toBe(canonical("#1565c1"));
  });
});
