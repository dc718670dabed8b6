// Apart from constants.ts so that the constants come without zod (ADR 018).
import { z } from "zod";
import { LOCALES } from "./constants";

export const LocaleSchema = z.enum(LOCALES);
