/** Saves bytes the page holds as a download named `fileName` (a file answer, or text the server answered). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL can go on the next tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
