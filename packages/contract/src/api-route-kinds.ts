// The kinds of route in the web's route map (api-paths.ts) and the helpers its tables are written
// with. Type-only zod: nothing here loads it.
import type { z } from "zod";

/** A JSON call: the body the console sends (the client adds the token) and the answer. */
export interface ApiCall<Body, Answer> {
  readonly kind: "call";
  readonly body: Body;
  readonly answer: Answer;
}

/** A streamed list (newline-delimited JSON): the body and one line's shape. */
export interface ApiStream<Body, Line> {
  readonly kind: "stream";
  readonly body: Body;
  readonly line: Line;
}

/** A file answer the browser saves (a stored file, a firmware image, a PDF report), and the body it is asked with. */
export interface ApiDownload<Body = NoBody> {
  readonly kind: "download";
  readonly body: Body;
}

/** A multipart upload of one file in the field `file`, and the answer. */
export interface ApiUpload<Answer> {
  readonly kind: "upload";
  readonly answer: Answer;
}

/** The body of a call that sends nothing but the token. */
export type NoBody = Record<string, never>;
/** The answer of calls with nothing else to say. */
export type OkAnswer = { ok: true };
export type Ok = OkAnswer;
export type In<S extends z.ZodType> = Omit<NonNullable<z.input<S>>, "token">;
export type Out<S extends z.ZodType> = z.output<S>;

export const call = <Body, Answer>() => ({ kind: "call" }) as ApiCall<Body, Answer>;
export const stream = <Body, Line>() => ({ kind: "stream" }) as ApiStream<Body, Line>;
export const download = <Body = NoBody>() => ({ kind: "download" }) as ApiDownload<Body>;
export const upload = <Answer>() => ({ kind: "upload" }) as ApiUpload<Answer>;
