import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setLocale } from "../../../app/i18n";
import { UserForm } from "./UserForm";

// Issue 11: a new domain admin got no plugins (every box unticked), and the form did not say what a
// plugin enables.
describe("UserForm plugins for a new domain admin", () => {
  beforeAll(() => setLocale("en"));
  afterEach(cleanup);

  it("starts with every plugin an admin needs, each saying what it enables", () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <UserForm
            user={null}
            mode="full"
            roleOptions={null}
            fixedRole={2}
            shape={{ hasDomain: false, hasPolicy: false, hasPlugins: true, hasTagScope: false }}
            isSaving={false}
            error={null}
            onSave={() => undefined}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    for (const name of ["Notifications", "Accounting", "Keychain"]) {
      expect((screen.getByRole("checkbox", { name: new RegExp(name) }) as HTMLInputElement).checked).toBe(
        true,
      );
    }
    expect(screen.getByTestId("plugin-hint-accounting").textContent).toMatch(/security policies/i);
  });
});
