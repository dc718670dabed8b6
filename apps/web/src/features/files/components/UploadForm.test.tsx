import { UPLOAD_MAX_BYTES } from "@cellfleet/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../../app/i18n";
import { UploadForm } from "./UploadForm";

/** A File of `size` bytes without allocating them: the form reads only name and size before sending. */
function fakeFile(name: string, size: number): File {
  const file = new File(["x"], name);
  Object.defineProperty(file, "size", { value: size });
  return file;
}

function renderForm(fileType: "firmware" | "package" = "firmware") {
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <UploadForm fileType={fileType} onDone={vi.fn()} onCancel={vi.fn()} />
    </QueryClientProvider>,
  );
  return screen.getByTestId("upload-input") as HTMLInputElement;
}

describe("UploadForm", () => {
  beforeAll(() => setLocale("en"));
  afterEach(() => cleanup());

  it("refuses a package of 25 MB before sending, naming the file, and offers no upload", () => {
    const input = renderForm("package");
    fireEvent.change(input, { target: { files: [fakeFile("huge.ipk", UPLOAD_MAX_BYTES)] } });
    expect(screen.getByTestId("upload-problem").textContent).toContain("huge.ipk");
    expect(screen.getByTestId("upload-problem").textContent).toContain("too large");
    expect((screen.getByRole("button", { name: "Upload" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("leaves a firmware image of 25 MB or more to the server's FIRMWARE_MAX_MB (issue 27 item 15)", () => {
    const input = renderForm();
    fireEvent.change(input, { target: { files: [fakeFile("vendor.bin", UPLOAD_MAX_BYTES * 2)] } });
    expect(screen.queryByTestId("upload-problem")).toBeNull();
    expect((screen.getByRole("button", { name: "Upload" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("refuses a firmware that is not .bin, and takes one just under the limit", () => {
    const input = renderForm();
    fireEvent.change(input, { target: { files: [fakeFile("notes.txt", 10)] } });
    expect(screen.getByTestId("upload-problem").textContent).toContain("notes.txt");
    fireEvent.change(input, { target: { files: [fakeFile("fw.bin", UPLOAD_MAX_BYTES - 1)] } });
    expect(screen.queryByTestId("upload-problem")).toBeNull();
    expect(screen.getByTestId("upload-chosen").textContent).toBe("fw.bin · 25 MB");
    expect((screen.getByRole("button", { name: "Upload" }) as HTMLButtonElement).disabled).toBe(false);
  });
});
