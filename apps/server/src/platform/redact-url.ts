/** A URL fit for a log line, an answer or a start-up error: its password replaced by `***`. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}
